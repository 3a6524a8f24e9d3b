package provider

import (
	"strings"
	"testing"
	"time"
)

func TestWaitingForReadyNeedsTheSiteToHaveObservedTheLatestGeneration(t *testing.T) {
	behind := clusterJSON{State: "ready", Generation: 3, ObservedGeneration: 2}
	if done, _ := reached(behind, "ready"); done {
		t.Fatal("a resize the site has not applied yet is not ready")
	}
	caughtUp := clusterJSON{State: "ready", Generation: 3, ObservedGeneration: 3}
	if done, err := reached(caughtUp, "ready"); !done || err != nil {
		t.Fatalf("want ready, got %v %v", done, err)
	}
}

func TestAnErrorOrRejectionEndsTheWaitWithTheSitesMessage(t *testing.T) {
	_, err := reached(clusterJSON{State: "error", StatusMessage: "no VFs left on host esx-3"}, "ready")
	if err == nil || !strings.Contains(err.Error(), "no VFs left on host esx-3") {
		t.Fatalf("got %v", err)
	}
	_, err = reached(clusterJSON{State: "rejected", RejectionReason: "over budget"}, "approved")
	if err == nil || !strings.Contains(err.Error(), "over budget") {
		t.Fatalf("got %v", err)
	}
}

func TestASubmittedRequestSatisfiesWaitForSubmittedButNotApproved(t *testing.T) {
	pending := clusterJSON{State: "endorsed"}
	if done, _ := reached(pending, "submitted"); !done {
		t.Fatal("an endorsed request is submitted")
	}
	if done, _ := reached(pending, "approved"); done {
		t.Fatal("an endorsed request is not approved")
	}
}

func TestATimeoutSaysWhatTheClusterWaitsFor(t *testing.T) {
	err := timedOut(clusterJSON{ID: 7, Name: "mpi-1", State: "endorsed"}, waiting{target: "ready", timeout: 2 * time.Second})
	for _, want := range []string{"timed out after 2s", "mpi-1", "site admin's approval", "wait_for"} {
		if !strings.Contains(err.Error(), want) {
			t.Fatalf("%q missing from %q", want, err)
		}
	}
}
