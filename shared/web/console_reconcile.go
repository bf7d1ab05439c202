package web

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/i18n"
	"github.com/edu-invite/invite/shared/service"
)

// reconcileJobPage is an on-demand reconcile run started from the
// operations page: queued, running or finished, with its counts.
type reconcileJobPage struct {
	consolePage
	ID, SP, Status, StatusText string
	Done, Failed, DryRun       bool
	Error, Stopped             string
	Counts                     []detail
}

// consoleReconcileStart starts a reconcile of one application's SCIM
// connection (a plan unless "repair" is ticked) and shows its job.
func (p *Pages) consoleReconcileStart(w http.ResponseWriter, r *http.Request) {
	pr, _, ok := p.consoleAllowed(w, r, superUserOnly)
	if !ok {
		return
	}
	in := service.ReconcileInput{SPID: strings.TrimSpace(r.PostFormValue("sp")), DryRun: r.PostFormValue("repair") == ""}
	id, err := p.cfg.Service.StartReconcile(r.Context(), pr, in)
	if err != nil {
		p.refuse(w, r, err)
		return
	}
	http.Redirect(w, r, "/console/operations/reconcile/"+url.PathEscape(id), http.StatusSeeOther)
}

// consoleReconcileJob shows the state of a reconcile run.
func (p *Pages) consoleReconcileJob(w http.ResponseWriter, r *http.Request) {
	pr, lang, ok := p.consoleAllowed(w, r, superUserOnly)
	if !ok {
		return
	}
	id := r.PathValue("id")
	run, err := p.cfg.Service.ReconcileJob(r.Context(), pr, id)
	if err != nil {
		p.refuse(w, r, err)
		return
	}
	page := reconcileJobPage{consolePage: p.consoleBase(r, pr, lang, "console.reconcile.title", "operations"), ID: id, Status: run.Status()}
	page.StatusText = i18n.T(lang, "console.reconcile.status."+page.Status)
	switch page.Status {
	case domain.JobFailed:
		page.Done, page.Failed, page.Error = true, true, run.Summary
	case domain.JobSucceeded:
		page.Done = true
		var rep domain.ReconcileReport
		if err := json.Unmarshal([]byte(run.Summary), &rep); err != nil {
			page.Failed, page.Error = true, "the report could not be read"
			break
		}
		page.SP, page.DryRun, page.Stopped = rep.SP, rep.DryRun, rep.Stopped
		page.Counts = []detail{
			{i18n.T(lang, "console.reconcile.users"), strconv.Itoa(rep.Users)},
			{i18n.T(lang, "console.reconcile.groups"), strconv.Itoa(rep.Groups)},
			{i18n.T(lang, "console.reconcile.planned"), strconv.Itoa(len(rep.Repairs))},
			{i18n.T(lang, "console.reconcile.repaired"), strconv.Itoa(rep.Repaired)},
			{i18n.T(lang, "console.reconcile.failed"), strconv.Itoa(rep.Failed)},
		}
	}
	p.render(w, r, http.StatusOK, "console/reconcile", page)
}
