// Command vcsim runs govmomi's vCenter simulator with the fixtures Enclave's tests need:
// SR-IOV physical functions per host, realistic method delays, run-time fault injection,
// a per-method SOAP request counter (see control.go) and guest customization given at clone
// time (customize.go).
package main

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"encoding/pem"
	"flag"
	"fmt"
	"log"
	"net"
	"net/url"
	"os"
	"os/signal"
	"strconv"
	"syscall"

	"github.com/vmware/govmomi/find"
	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/vim25"
)

type options struct {
	listen    string
	tlsName   string
	port      int
	hosts     int
	datastore int
	template  string
	readyFile string
	caOut     string
	profile   string
	delays    string
	sriov     string
	devices   string
	handoff   bool
	insecure  bool
	user      string
	password  string
}

func parseFlags() options {
	var o options
	flag.IntVar(&o.port, "port", 0, "port to listen on (0 picks a free one)")
	flag.StringVar(&o.listen, "listen", "127.0.0.1", "address to listen on (a container's simulator: 0.0.0.0)")
	flag.StringVar(&o.tlsName, "tls-name", "", "serve a fresh self-signed certificate for this DNS name "+
		"and announce it as the host (default: Go's test certificate for 127.0.0.1)")
	flag.IntVar(&o.hosts, "hosts", 4, "hosts in the cluster")
	flag.IntVar(&o.datastore, "datastores", 1, "datastores mounted on every host")
	flag.StringVar(&o.template, "template", "hpc-template", "name of the VM template to clone from")
	flag.StringVar(&o.readyFile, "ready-file", "", "write the ready line as JSON to this file")
	flag.StringVar(&o.caOut, "ca-out", "", "write the server certificate (PEM) here for TLS verification")
	flag.StringVar(&o.profile, "profile", "none", "built-in delay profile: none | vcenter")
	flag.StringVar(&o.delays, "delays", "", "JSON file with delays (overrides the profile)")
	flag.StringVar(&o.sriov, "sriov", "", "JSON file with SR-IOV PFs per host (default: paper's ConnectX-5)")
	flag.StringVar(&o.devices, "devices", "", "JSON file with GPUs, passthrough devices, PVRDMA, DPUs, ENS per host (devices.go)")
	flag.BoolVar(&o.handoff, "lock-handoff", false, "keep the simulator's lock hand-off (serializes clones)")
	flag.BoolVar(&o.insecure, "plain-http", false, "serve plain HTTP instead of TLS")
	flag.StringVar(&o.user, "user", "enclave", "login user")
	flag.StringVar(&o.password, "password", "enclave-pass", "login password")
	flag.Parse()
	return o
}

func main() {
	log.SetFlags(0)
	o := parseFlags()
	delays, err := loadDelays(o.profile, o.delays)
	if err != nil {
		log.Fatalf("vcsim: %v", err)
	}
	pfs, err := loadPFs(o.sriov)
	if err != nil {
		log.Fatalf("vcsim: %v", err)
	}
	devices, err := loadDevices(o.devices)
	if err != nil {
		log.Fatalf("vcsim: %v", err)
	}
	model := newModel(o)
	// The vSphere API version clients negotiate: GPU, DPU and UPTv2 properties need 7.0.3 / 8.0.
	model.ServiceContent.About.ApiVersion = devices.APIVersion
	if err := model.Create(); err != nil {
		log.Fatalf("vcsim: create model: %v", err)
	}
	defer model.Remove()
	if err := prepareInventory(model, o.template, pfs); err != nil {
		log.Fatalf("vcsim: prepare inventory: %v", err)
	}
	installDevices(model.Map(), devices)
	ctl := newControl(model.Service, pfs, devices)
	applyDelays(model, delays, o.handoff)
	server := startServer(model, o, ctl)
	defer server.Close()
	if err := announce(server, o); err != nil {
		log.Fatalf("vcsim: %v", err)
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	<-sig
}

// newModel builds the VPX model: one datacenter, one cluster of N hosts, no extra VMs.
func newModel(o options) *simulator.Model {
	m := simulator.VPX()
	m.Datacenter = 1
	m.Cluster = 1
	m.ClusterHost = o.hosts
	m.Host = 0
	m.Portgroup = 0
	m.Datastore = o.datastore
	m.Machine = 1 // becomes the template
	m.Autostart = false
	return m
}

// prepareInventory renames the model's VM into the template and installs SR-IOV fixtures.
func prepareInventory(m *simulator.Model, template string, pfs []pfSpec) error {
	ctx := context.Background()
	// In-process client: no HTTP, no delays, not counted.
	c, err := vim25.NewClient(ctx, m.Service)
	if err != nil {
		return err
	}
	finder := find.NewFinder(c, true)
	dc, err := finder.DefaultDatacenter(ctx)
	if err != nil {
		return err
	}
	finder.SetDatacenter(dc)
	vms, err := finder.VirtualMachineList(ctx, "*")
	if err != nil || len(vms) != 1 {
		return fmt.Errorf("expected exactly one model VM: %v", err)
	}
	task, err := vms[0].Rename(ctx, template)
	if err != nil {
		return err
	}
	if err := task.Wait(ctx); err != nil {
		return err
	}
	if err := vms[0].MarkAsTemplate(ctx); err != nil {
		return err
	}
	installPFs(m.Map(), pfs)
	return nil
}

func startServer(m *simulator.Model, o options, ctl *control) *simulator.Server {
	m.Service.Listen = &url.URL{
		Host: net.JoinHostPort(o.listen, strconv.Itoa(o.port)),
		User: url.UserPassword(o.user, o.password),
	}
	if !o.insecure {
		m.Service.TLS = new(tls.Config)
		if o.tlsName != "" {
			cert, err := selfSigned(o.tlsName)
			if err != nil {
				log.Fatalf("vcsim: certificate for %s: %v", o.tlsName, err)
			}
			m.Service.TLS.Certificates = []tls.Certificate{cert} // httptest keeps given certificates
		}
	}
	m.Service.HandleFunc(controlPrefix, ctl.ServeHTTP)
	return m.Service.NewServer()
}

// writeCA stores the server certificate so clients can verify TLS instead of disabling it.
func writeCA(s *simulator.Server, path string) (string, error) {
	if path == "" {
		return s.CertificateFile()
	}
	block := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: s.Certificate().Raw})
	return path, os.WriteFile(path, block, 0o644)
}

type readyInfo struct {
	URL      string `json:"url"`
	SDK      string `json:"sdk"`
	Host     string `json:"host"`
	User     string `json:"user"`
	Password string `json:"password"`
	CAFile   string `json:"ca_file,omitempty"`
	Control  string `json:"control"`
	PID      int    `json:"pid"`
}

// announce prints one ready line and optionally writes it to a file for scripts.
func announce(s *simulator.Server, o options) error {
	info := readyInfo{
		Host: s.URL.Host, User: o.user, Password: o.password, PID: os.Getpid(),
	}
	if o.tlsName != "" { // clients reach it by the certificate's name, not the bound address
		_, port, _ := net.SplitHostPort(s.URL.Host)
		s.URL.Host = net.JoinHostPort(o.tlsName, port)
		info.Host = s.URL.Host
	}
	sdk := *s.URL
	sdk.User = nil
	info.SDK = sdk.String()
	info.URL = s.URL.String()
	info.Control = fmt.Sprintf("%s://%s%s", sdk.Scheme, sdk.Host, controlPrefix)
	if !o.insecure {
		ca, err := writeCA(s, o.caOut)
		if err != nil {
			return err
		}
		info.CAFile = ca
	}
	line, _ := json.Marshal(info)
	if o.readyFile != "" {
		tmp := o.readyFile + ".tmp"
		if err := os.WriteFile(tmp, line, 0o600); err != nil {
			return err
		}
		// Rename so readers never see a half-written file.
		if err := os.Rename(tmp, o.readyFile); err != nil {
			return err
		}
	}
	fmt.Printf("VCSIM READY %s\n", line)
	return nil
}
