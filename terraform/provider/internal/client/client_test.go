package client

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAFieldErrorNamesTheFieldAndItsMessage(t *testing.T) {
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"sequence": ["Sequence number 10 is already used by rule 'ssh' in this policy."], "code": "invalid"}`))
	}))
	defer server.Close()
	c, err := New(Options{URL: server.URL, Token: "t"})
	if err != nil {
		t.Fatal(err)
	}
	err = c.Post(context.Background(), "firewall-rules/", map[string]any{"sequence": 10}, nil)
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 400 {
		t.Fatalf("want a 400 APIError, got %v", err)
	}
	if !strings.Contains(apiErr.Details(), "sequence: Sequence number 10 is already used") {
		t.Fatalf("the field's message is missing: %s", apiErr.Details())
	}
}

func TestTheTokenIsSentAsABearerAndRedirectsAreNotFollowed(t *testing.T) {
	var seen string
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = r.Header.Get("Authorization")
		http.Redirect(w, r, "http://elsewhere.invalid/", http.StatusFound)
	}))
	defer server.Close()
	c, _ := New(Options{URL: server.URL + "/", Token: "secret"})
	err := c.Get(context.Background(), "tenants/", nil, nil)
	if seen != "Bearer secret" {
		t.Fatalf("Authorization header was %q", seen)
	}
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Status != http.StatusFound {
		t.Fatalf("a redirect must come back as an error, got %v", err)
	}
}

func TestADownServerSaysItCannotBeReached(t *testing.T) {
	server := httptest.NewServer(http.NotFoundHandler())
	url := server.URL
	server.Close()
	c, _ := New(Options{URL: url, Token: "t"})
	err := c.Get(context.Background(), "tenants/", nil, nil)
	var down *UnreachableError
	if !errors.As(err, &down) || !strings.Contains(err.Error(), "cannot reach Enclave") {
		t.Fatalf("want an UnreachableError, got %v", err)
	}
}

func TestACABundleWithoutCertificatesIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(path, []byte("not a certificate"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Options{URL: "https://enclave.example.org", Token: "t", CABundle: path}); err == nil {
		t.Fatal("a bundle with no certificate must be refused, not silently ignored")
	}
}

func TestAMissingURLOrTokenIsAClearError(t *testing.T) {
	if _, err := New(Options{Token: "t"}); err == nil || !strings.Contains(err.Error(), "ENCLAVE_URL") {
		t.Fatalf("got %v", err)
	}
	if _, err := New(Options{URL: "https://x"}); err == nil || !strings.Contains(err.Error(), "ENCLAVE_TOKEN") {
		t.Fatalf("got %v", err)
	}
}
