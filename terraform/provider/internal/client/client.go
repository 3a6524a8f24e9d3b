// Package client is a small HTTP client for Enclave's REST API at /api/v1/.
package client

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

// Client talks to one Enclave site with one bearer token.
type Client struct {
	base  *url.URL
	token string
	http  *http.Client
	// UserAgent names the caller in the server's logs.
	UserAgent string
}

// Options configure a Client.
type Options struct {
	URL      string
	Token    string
	CABundle string // path to a PEM file; empty: the system's roots
	Timeout  time.Duration
}

// New checks the options and builds a client; TLS certificates are always verified.
func New(opts Options) (*Client, error) {
	if opts.URL == "" {
		return nil, errors.New("no Enclave URL: set the provider's url or ENCLAVE_URL")
	}
	if opts.Token == "" {
		return nil, errors.New("no API token: set the provider's token or ENCLAVE_TOKEN")
	}
	base, err := url.Parse(strings.TrimRight(opts.URL, "/") + "/api/v1/")
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, fmt.Errorf("the Enclave URL %q is not an http(s) URL", opts.URL)
	}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	if opts.CABundle != "" {
		pool, err := loadCABundle(opts.CABundle)
		if err != nil {
			return nil, err
		}
		transport.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	}
	timeout := opts.Timeout
	if timeout == 0 {
		timeout = 60 * time.Second
	}
	httpClient := &http.Client{Transport: transport, Timeout: timeout, CheckRedirect: noRedirects}
	return &Client{base: base, token: opts.Token, http: httpClient, UserAgent: "terraform-provider-enclave"}, nil
}

// noRedirects keeps the bearer token from following a redirect to another host.
func noRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

func loadCABundle(path string) (*x509.CertPool, error) {
	pem, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read ca_bundle: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("ca_bundle %s holds no PEM certificate", path)
	}
	return pool, nil
}

// Get reads path (relative to /api/v1/) into out.
func (c *Client) Get(ctx context.Context, path string, query url.Values, out any) error {
	return c.Do(ctx, http.MethodGet, path, query, nil, out)
}

// Post sends body to path and decodes the answer into out (when not nil).
func (c *Client) Post(ctx context.Context, path string, body, out any) error {
	return c.Do(ctx, http.MethodPost, path, nil, body, out)
}

// Put replaces the object at path.
func (c *Client) Put(ctx context.Context, path string, body, out any) error {
	return c.Do(ctx, http.MethodPut, path, nil, body, out)
}

// Patch changes some fields of the object at path.
func (c *Client) Patch(ctx context.Context, path string, body, out any) error {
	return c.Do(ctx, http.MethodPatch, path, nil, body, out)
}

// Delete removes the object at path.
func (c *Client) Delete(ctx context.Context, path string) error {
	return c.Do(ctx, http.MethodDelete, path, nil, nil, nil)
}

// Do sends one request, retrying only when the server throttles (429) or is briefly unavailable (503).
func (c *Client) Do(ctx context.Context, method, path string, query url.Values, body, out any) error {
	var payload []byte
	if body != nil {
		var err error
		if payload, err = json.Marshal(body); err != nil {
			return err
		}
	}
	for attempt := 0; ; attempt++ {
		status, data, header, err := c.send(ctx, method, path, query, payload)
		if err != nil {
			return err
		}
		if (status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable) && attempt < 5 {
			if err := sleep(ctx, retryAfter(header, attempt)); err != nil {
				return err
			}
			continue
		}
		if status >= 300 {
			return newAPIError(method, c.resolve(path, nil).Path, status, data)
		}
		if out == nil || len(data) == 0 {
			return nil
		}
		if err := json.Unmarshal(data, out); err != nil {
			return fmt.Errorf("%s %s: the answer is not the JSON expected: %w", method, path, err)
		}
		return nil
	}
}

func (c *Client) resolve(path string, query url.Values) *url.URL {
	u := c.base.ResolveReference(&url.URL{Path: strings.TrimLeft(path, "/")})
	if len(query) > 0 {
		u.RawQuery = query.Encode()
	}
	return u
}

func (c *Client) send(ctx context.Context, method, path string, query url.Values, payload []byte) (int, []byte, http.Header, error) {
	target := c.resolve(path, query)
	req, err := http.NewRequestWithContext(ctx, method, target.String(), bytes.NewReader(payload))
	if err != nil {
		return 0, nil, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.UserAgent)
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, nil, nil, &UnreachableError{URL: c.base.Scheme + "://" + c.base.Host, Err: err}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	return resp.StatusCode, data, resp.Header, err
}

func retryAfter(header http.Header, attempt int) time.Duration {
	if seconds, err := strconv.Atoi(header.Get("Retry-After")); err == nil && seconds >= 0 && seconds <= 60 {
		return time.Duration(seconds) * time.Second
	}
	return time.Duration(1<<attempt) * time.Second
}

func sleep(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

// page is the API's limit/offset pagination envelope.
type page[T any] struct {
	Next    *string `json:"next"`
	Results []T     `json:"results"`
}

// List reads every page of a list endpoint.
func List[T any](ctx context.Context, c *Client, path string, query url.Values) ([]T, error) {
	var all []T
	q := url.Values{}
	for k, v := range query {
		q[k] = v
	}
	q.Set("limit", "1000")
	for offset := 0; ; {
		q.Set("offset", strconv.Itoa(offset))
		var p page[T]
		if err := c.Get(ctx, path, q, &p); err != nil {
			return nil, err
		}
		all = append(all, p.Results...)
		if p.Next == nil || len(p.Results) == 0 {
			return all, nil
		}
		offset += len(p.Results)
	}
}
