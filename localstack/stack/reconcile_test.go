package stack

import (
	"net/http"
	"testing"
)

// An SP that lost everything behind the service's back: the reconcile
// dry run through the API reports the repairs and changes nothing; the real
// run makes the SP equal to the service again.
func TestReconcileThroughTheAPIRepairsAnSPThatLostItsData(t *testing.T) {
	f := newLifecycleFixture(t)
	role := f.createRole("Wiki editors", "app-a", 30)
	f.inviteAndAccept("ann@example.org", "en", "", role)
	f.inviteAndAccept("ben@example.org", "en", "", role)
	eventually(t, "both members at SP A", func() bool { return members(f.spA) == 2 })
	f.spA.Reset() // the SP restarts empty; no delivery comes to notice

	type report struct {
		DryRun  bool `json:"dryRun"`
		Users   int  `json:"users"`
		Groups  int  `json:"groups"`
		Repairs []struct {
			Action string `json:"action"`
		} `json:"repairs"`
		Stopped  string `json:"stopped"`
		Repaired int    `json:"repaired"`
		Failed   int    `json:"failed"`
	}
	// A run answers 202 with its job; its report comes from polling.
	type job struct {
		Status    string  `json:"status"`
		StatusURL string  `json:"statusUrl"`
		Report    *report `json:"report"`
		Error     string  `json:"error"`
	}
	run := func(body map[string]any) report {
		t.Helper()
		var started job
		if got := f.c.do("POST", "/api/v1/system/deliveries/reconcile", f.admin, body, &started); got != http.StatusAccepted || started.StatusURL == "" {
			t.Fatalf("reconcile %v = %d %+v", body, got, started)
		}
		var j job
		eventually(t, "the reconcile job done", func() bool {
			j = job{}
			return f.c.do("GET", started.StatusURL, f.admin, nil, &j) == http.StatusOK && j.Status != "queued" && j.Status != "running"
		})
		if j.Status != "succeeded" || j.Report == nil {
			t.Fatalf("reconcile %v: job %+v", body, j)
		}
		return *j.Report
	}
	plan := run(map[string]any{"sp": "sp-a"})
	actions := map[string]int{}
	for _, r := range plan.Repairs {
		actions[r.Action]++
	}
	if !plan.DryRun || plan.Users != 2 || plan.Groups != 1 || actions["create-user"] != 2 || actions["create-group"] != 1 || len(plan.Repairs) != 3 {
		t.Fatalf("dry-run plan %+v", plan)
	}
	if len(f.spA.Users()) != 0 || len(f.spA.Groups()) != 0 {
		t.Fatal("the dry run changed the SP")
	}

	done := run(map[string]any{"sp": "sp-a", "dryRun": false})
	if done.DryRun || done.Repaired != 3 || done.Failed != 0 {
		t.Fatalf("run %+v", done)
	}
	users, groups := f.spA.Users(), f.spA.Groups()
	if len(users) != 2 || len(groups) != 1 || len(groups[0].Members) != 2 {
		t.Fatalf("after the run: users %+v, groups %+v", users, groups)
	}
	// A later delivery finds the new ids: a third acceptance is 2 requests.
	before := len(f.spA.Requests())
	f.inviteAndAccept("cid@example.org", "en", "", role)
	eventually(t, "the third member at SP A", func() bool { return members(f.spA) == 3 })
	if n := len(f.spA.Requests()) - before; n != 2 {
		t.Fatalf("the acceptance after the repair took %d requests: %+v", n, f.spA.Requests()[before:])
	}
}
