package provider

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// Update applies day-2 changes: a draft is edited; a live cluster is resized and its lease extended.
func (r *clusterResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state clusterModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	wait, ok := waitSettings(plan, &resp.Diagnostics)
	if !ok {
		return
	}
	id, ok := objectID(state.ID, &resp.Diagnostics)
	if !ok {
		return
	}
	out, err := r.get(ctx, id)
	if err == nil {
		if out.State == "draft" {
			out, err = r.editDraft(ctx, id, plan, out)
		} else {
			out, err = r.changeLive(ctx, id, plan, out, &resp.Diagnostics)
		}
	}
	if err != nil {
		addError(&resp.Diagnostics, "Updating cluster "+plan.Name.ValueString(), err)
		return
	}
	next := plan.withAPI(out)
	next.LeaseEnd = plan.LeaseEnd // an extension waiting for a decision: see changeLive's warning
	resp.Diagnostics.Append(resp.State.Set(ctx, next)...)
	if out.State == "draft" {
		return
	}
	out, err = r.waitFor(ctx, out, wait)
	next = plan.withAPI(out)
	next.LeaseEnd = plan.LeaseEnd
	resp.Diagnostics.Append(resp.State.Set(ctx, next)...)
	if err != nil {
		resp.Diagnostics.AddError(fmt.Sprintf("Cluster %s is not %s", plan.Name.ValueString(), wait.target), err.Error())
	}
}

// editDraft patches what changed and submits when asked to.
func (r *clusterResource) editDraft(ctx context.Context, id int64, plan clusterModel, out clusterJSON) (clusterJSON, error) {
	body := map[string]any{}
	if plan.WorkerCount.ValueInt64() != out.WorkerCount {
		body["worker_count"] = plan.WorkerCount.ValueInt64()
	}
	if !plan.Interconnect.IsUnknown() && plan.Interconnect.ValueString() != out.Interconnect {
		body["interconnect"] = plan.Interconnect.ValueString()
	}
	if plan.LeaseEnd.ValueString() != out.LeaseEnd {
		body["lease_end"] = plan.LeaseEnd.ValueString()
	}
	if plan.Justification.ValueString() != out.Justification {
		body["justification"] = plan.Justification.ValueString()
	}
	path := fmt.Sprintf("clusters/%d/", id)
	if len(body) > 0 {
		if err := r.api.client.Patch(ctx, path, body, &out); err != nil {
			return out, err
		}
	}
	if plan.Submit.IsNull() || plan.Submit.ValueBool() {
		err := r.api.client.Post(ctx, path+"submit/", nil, &out)
		return out, err
	}
	return out, nil
}

// changeLive resizes and extends the lease of a submitted or realized cluster.
func (r *clusterResource) changeLive(ctx context.Context, id int64, plan clusterModel, out clusterJSON, diags *diagnostics) (clusterJSON, error) {
	if plan.Justification.ValueString() != out.Justification {
		return out, errors.New("the justification can be changed only while the request is a draft; " +
			"put the old text back (or give lease_justification for a lease extension)")
	}
	if !plan.Submit.IsNull() && !plan.Submit.ValueBool() {
		return out, fmt.Errorf("the request is already %s: it cannot go back to a draft (submit = false)", out.State)
	}
	resize := map[string]any{}
	if plan.WorkerCount.ValueInt64() != out.WorkerCount {
		resize["worker_count"] = plan.WorkerCount.ValueInt64()
	}
	if !plan.Interconnect.IsUnknown() && plan.Interconnect.ValueString() != out.Interconnect {
		resize["interconnect"] = plan.Interconnect.ValueString()
	}
	path := fmt.Sprintf("clusters/%d/", id)
	if len(resize) > 0 {
		if err := r.api.client.Post(ctx, path+"resize/", resize, &out); err != nil {
			return out, err
		}
	}
	if plan.LeaseEnd.ValueString() == out.LeaseEnd {
		return out, nil
	}
	return r.extendLease(ctx, path, plan, out, diags)
}

// extendLease moves the lease end; past the site's maximum the API answers 202 and a PI or admin decides.
func (r *clusterResource) extendLease(ctx context.Context, path string, plan clusterModel, out clusterJSON, diags *diagnostics) (clusterJSON, error) {
	body := map[string]any{"lease_end": plan.LeaseEnd.ValueString(), "justification": plan.LeaseJustification.ValueString()}
	var answer map[string]any
	if err := r.api.client.Post(ctx, path+"extend-lease/", body, &answer); err != nil {
		return out, err
	}
	if _, extension := answer["cluster"]; extension {
		diags.AddWarning("Lease extension waits for a decision",
			fmt.Sprintf("Extending the lease of %s to %s goes past the site's maximum: a PI or site admin decides. "+
				"Until then the lease ends %s, and plans show the difference.", out.Name, plan.LeaseEnd.ValueString(), out.LeaseEnd))
		return out, nil
	}
	return r.get(ctx, out.ID)
}

func (r *clusterResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state clusterModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	id, ok := objectID(state.ID, &resp.Diagnostics)
	if !ok {
		return
	}
	timeout, err := parseDuration(state.DeleteTimeout, 30*time.Minute)
	if err != nil {
		resp.Diagnostics.AddError("Invalid delete_timeout", err.Error())
		return
	}
	out, err := r.get(ctx, id)
	if gone(err) || (err == nil && (out.State == "retired" || out.State == "rejected")) {
		return
	}
	if err == nil && out.State != "decommissioning" {
		err = r.api.client.Post(ctx, fmt.Sprintf("clusters/%d/decommission/", id), nil, &out)
	}
	if err == nil && timeout > 0 && out.State != "retired" {
		_, err = r.waitFor(ctx, out, waiting{target: "retired", timeout: timeout, poll: r.api.poll})
	}
	if err != nil {
		addError(&resp.Diagnostics, "Decommissioning cluster "+state.Name.ValueString(), err)
	}
}

// waiting says what a wait is for: a target state and how long.
type waiting struct {
	target  string // submitted, approved, ready or retired
	timeout time.Duration
	poll    time.Duration
}

func waitSettings(plan clusterModel, diags *diagnostics) (waiting, bool) {
	target := plan.WaitFor.ValueString()
	if plan.WaitFor.IsNull() || target == "" {
		target = "submitted"
	}
	if target != "submitted" && target != "approved" && target != "ready" {
		diags.AddError("Invalid wait_for", fmt.Sprintf("wait_for is submitted, approved or ready, not %q", target))
		return waiting{}, false
	}
	timeout, err := parseDuration(plan.ReadyTimeout, time.Hour)
	if err != nil {
		diags.AddError("Invalid ready_timeout", err.Error())
		return waiting{}, false
	}
	return waiting{target: target, timeout: timeout}, true
}

// reached says whether the cluster is where the wait wants it, or why it never will be.
func reached(c clusterJSON, target string) (bool, error) {
	switch {
	case target == "retired":
		return c.State == "retired", failedWhileRetiring(c)
	case c.State == "error":
		return false, fmt.Errorf("the site reports an error: %s", orNone(c.StatusMessage))
	case c.State == "rejected":
		return false, fmt.Errorf("the request was rejected: %s", orNone(c.RejectionReason))
	case c.State == "decommissioning" || c.State == "retired":
		return false, fmt.Errorf("the cluster is %s", c.State)
	case target == "submitted":
		return true, nil
	case target == "approved":
		return c.State == "approved" || c.State == "provisioning" || c.State == "ready" || c.State == "degraded", nil
	}
	return c.State == "ready" && c.ObservedGeneration >= c.Generation, nil
}

func failedWhileRetiring(c clusterJSON) error {
	if c.State == "error" {
		return fmt.Errorf("the site reports an error while tearing it down: %s", orNone(c.StatusMessage))
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "(no message)"
	}
	return s
}

// waitFor polls the cluster until it reaches the wait's target, fails, or the timeout passes.
func (r *clusterResource) waitFor(ctx context.Context, c clusterJSON, w waiting) (clusterJSON, error) {
	if w.poll == 0 {
		w.poll = r.api.poll
	}
	deadline := time.Now().Add(w.timeout)
	for {
		done, err := reached(c, w.target)
		if done || err != nil {
			return c, err
		}
		if time.Now().After(deadline) {
			return c, timedOut(c, w)
		}
		if err := sleep(ctx, w.poll); err != nil {
			return c, err
		}
		next, err := r.get(ctx, c.ID)
		if gone(err) && w.target == "retired" {
			return clusterJSON{ID: c.ID, State: "retired"}, nil
		}
		if err != nil {
			return c, err
		}
		c = next
	}
}

func timedOut(c clusterJSON, w waiting) error {
	hint := ""
	switch c.State {
	case "submitted":
		hint = " It waits for a PI's endorsement, then a site admin's approval."
	case "endorsed":
		hint = " It waits for a site admin's approval."
	case "approved", "provisioning":
		hint = " The site has not finished realizing it (is the site's worker running?)."
	}
	return fmt.Errorf("timed out after %s waiting for cluster %s (id %d) to be %s: it is %s (%s).%s "+
		"Set wait_for = \"submitted\" not to wait, or a longer timeout.",
		w.timeout, c.Name, c.ID, w.target, c.State, orNone(c.StatusMessage), hint)
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
