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
	var plan report
	if got := f.c.do("POST", "/api/v1/system/deliveries/reconcile", f.admin, map[string]any{"sp": "sp-a"}, &plan); got != http.StatusOK {
		t.Fatalf("dry run = %d", got)
	}
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

	var done report
	if got := f.c.do("POST", "/api/v1/system/deliveries/reconcile", f.admin, map[string]any{"sp": "sp-a", "dryRun": false}, &done); got != http.StatusOK {
		t.Fatalf("run = %d", got)
	}
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
