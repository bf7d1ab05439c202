package web

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
)

// plannedRepairs answers a reconcile with three users compared and one
// repair planned or made.
type plannedRepairs struct{}

func (plannedRepairs) Reconcile(_ context.Context, spID string, opts domain.ReconcileOptions) (domain.ReconcileReport, error) {
	rep := domain.ReconcileReport{SP: spID, DryRun: opts.DryRun, Users: 3, Groups: 1,
		Repairs: []domain.Repair{{Action: domain.RepairCreateUser, Kind: domain.ResourceUser, LocalID: 7}}}
	if !opts.DryRun {
		rep.Repaired = 1
	}
	return rep, nil
}

// A super user starts a reconcile of one SP from the operations page and
// follows its job: queued or running with a way to check again, then
// finished with its counts. Nobody else may start or read one.
func TestConsoleStartsAReconcileAndShowsItsJob(t *testing.T) {
	w := newConsoleTenantWorld(t)
	w.pages.cfg.Service.Reconciler = plannedRepairs{}
	super := &auth.Principal{Kind: auth.KindPerson, SuperUser: true, Name: "super@example.org",
		Person: &auth.Person{Name: "Super", Email: "super@example.org", Sub: "super"}}

	ops := w.serve(super, http.MethodGet, "/console/operations", "")
	if ops.Code != http.StatusOK || !strings.Contains(ops.Body.String(), `action="/console/operations/reconcile"`) ||
		!strings.Contains(ops.Body.String(), `<option value="sp-a">`) {
		t.Fatalf("operations page: %d, no reconcile form with sp-a", ops.Code)
	}
	for _, tc := range []struct {
		form       string
		wantWords  []string
		wantRepair string
	}{
		{"sp=sp-a", []string{"The plan for sp-a", "Users compared</dt><dd>3", "Repairs planned</dt><dd>1"}, "Repaired</dt><dd>0"},
		{"sp=sp-a&repair=on", []string{"What was repaired at sp-a", "Repairs planned</dt><dd>1"}, "Repaired</dt><dd>1"},
	} {
		started := w.serve(super, http.MethodPost, "/console/operations/reconcile", tc.form)
		loc := started.Header().Get("Location")
		if started.Code != http.StatusSeeOther || !strings.HasPrefix(loc, "/console/operations/reconcile/") {
			t.Fatalf("%s: %d Location %q", tc.form, started.Code, loc)
		}
		var body string
		for deadline := time.Now().Add(10 * time.Second); ; {
			page := w.serve(super, http.MethodGet, loc, "")
			if page.Code != http.StatusOK {
				t.Fatalf("%s: job page %d", tc.form, page.Code)
			}
			body = page.Body.String()
			if strings.Contains(body, `data-status="succeeded"`) || strings.Contains(body, `data-status="failed"`) || time.Now().After(deadline) {
				break
			}
			if !strings.Contains(body, "Check again") {
				t.Fatalf("%s: an unfinished job without a way to check again", tc.form)
			}
			time.Sleep(20 * time.Millisecond)
		}
		for _, want := range append(tc.wantWords, "Finished", tc.wantRepair) {
			if !strings.Contains(body, want) {
				t.Errorf("%s: the job page lacks %q", tc.form, want)
			}
		}
	}

	// A job not yet claimed is shown queued, with a way to check again.
	store := w.pages.cfg.Service.Store.(*dynamo.Store)
	if err := store.PutJobRun(context.Background(), domain.JobRun{Name: domain.ReconcileJobName("waiting"), QueuedAt: consoleWorldNow}); err != nil {
		t.Fatal(err)
	}
	if body := w.serve(super, http.MethodGet, "/console/operations/reconcile/waiting", "").Body.String(); !strings.Contains(body, `data-status="queued"`) ||
		!strings.Contains(body, "Queued") || !strings.Contains(body, "Check again") {
		t.Errorf("a queued job: %.2000s", body)
	}
	if rec := w.serve(super, http.MethodGet, "/console/operations/reconcile/no-such-job", ""); rec.Code != http.StatusNotFound {
		t.Errorf("an unknown job: %d, want 404", rec.Code)
	}
	if rec := w.serve(super, http.MethodPost, "/console/operations/reconcile", "sp=no-such-sp"); rec.Code != http.StatusNotFound {
		t.Errorf("an unknown SP: %d, want 404", rec.Code)
	}
	for _, who := range consoleTenantCallers {
		if rec := w.serve(w.people[who], http.MethodPost, "/console/operations/reconcile", "sp=sp-a"); rec.Code != http.StatusForbidden {
			t.Errorf("%s starts a reconcile: %d, want 403", who, rec.Code)
		}
	}
}
