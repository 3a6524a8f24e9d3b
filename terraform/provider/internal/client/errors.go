package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
)

// APIError is an answer with a status of 300 or more, with the API's messages.
type APIError struct {
	Method string
	Path   string
	Status int
	// Detail is the API's "detail" message, if any.
	Detail string
	// Fields maps a field name to its messages (400s name the fields they refuse).
	Fields map[string][]string
	Body   string
}

// UnreachableError says the server did not answer at all.
type UnreachableError struct {
	URL string
	Err error
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("cannot reach Enclave at %s (is the server up, and the URL right?): %v", e.URL, e.Err)
}

func (e *UnreachableError) Unwrap() error { return e.Err }

func newAPIError(method, path string, status int, body []byte) *APIError {
	e := &APIError{Method: method, Path: path, Status: status, Fields: map[string][]string{}}
	var decoded map[string]any
	if err := json.Unmarshal(body, &decoded); err != nil {
		e.Body = strings.TrimSpace(string(body))
		if len(e.Body) > 300 {
			e.Body = e.Body[:300] + "…"
		}
		return e
	}
	for key, value := range decoded {
		switch key {
		case "detail":
			e.Detail = strings.Join(messages(value), " ")
		case "code":
		default:
			e.Fields[key] = messages(value)
		}
	}
	return e
}

// messages flattens a DRF error value (a string, a list, or nested objects) into lines.
func messages(value any) []string {
	switch v := value.(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, item := range v {
			out = append(out, messages(item)...)
		}
		return out
	case map[string]any:
		var out []string
		for _, key := range sortedKeys(v) {
			for _, m := range messages(v[key]) {
				out = append(out, key+": "+m)
			}
		}
		return out
	default:
		return []string{fmt.Sprint(v)}
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Summary is a one-line account of what went wrong, by status.
func (e *APIError) Summary() string {
	switch e.Status {
	case http.StatusBadRequest:
		return "Enclave refused the request (400)"
	case http.StatusUnauthorized:
		return "Enclave did not accept the API token (401): it is wrong, expired or revoked"
	case http.StatusForbidden:
		return "Enclave forbids this (403)"
	case http.StatusNotFound:
		return "Not found in Enclave (404): it does not exist or is not visible to this token's user"
	case http.StatusConflict:
		return "Enclave refused the change in the object's current state (409)"
	case http.StatusTooManyRequests:
		return "Enclave is rate-limiting this token (429)"
	}
	if e.Status >= 500 {
		return fmt.Sprintf("Enclave failed to answer (%d)", e.Status)
	}
	return fmt.Sprintf("Enclave answered %d", e.Status)
}

// Details lists the API's messages: the detail first, then each field's.
func (e *APIError) Details() string {
	var lines []string
	if e.Detail != "" {
		lines = append(lines, e.Detail)
	}
	fields := make([]string, 0, len(e.Fields))
	for f := range e.Fields {
		fields = append(fields, f)
	}
	sort.Strings(fields)
	for _, f := range fields {
		lines = append(lines, fmt.Sprintf("%s: %s", f, strings.Join(e.Fields[f], " ")))
	}
	if len(lines) == 0 && e.Body != "" {
		lines = append(lines, e.Body)
	}
	return fmt.Sprintf("%s %s\n%s", e.Method, e.Path, strings.Join(lines, "\n"))
}

func (e *APIError) Error() string { return e.Summary() + ": " + e.Details() }

// IsNotFound says whether err is a 404 from the API.
func IsNotFound(err error) bool {
	var apiErr *APIError
	return errors.As(err, &apiErr) && apiErr.Status == http.StatusNotFound
}
