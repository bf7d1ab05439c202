package web

import (
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/i18n"
	"github.com/edu-invite/invite/shared/service"
)

// operationsPage is the super users' view of what failed: the dead letters
// of each SP with their reasons and age, to replay or discard.
type operationsPage struct {
	consolePage
	SPs  []deadLetterView
	Jobs []jobView
}

// jobView is the last run of a scheduled job.
type jobView struct {
	Name, When, State, Summary string
	About                      string // what the job does, in words
	Failed                     bool
}

type deadLetterView struct {
	SPID, Name string
	Count      int
	Oldest     string
	Reasons    []reasonCount
	Items      []deadLetterItem
}

type reasonCount struct {
	Reason string
	Count  int
}

type deadLetterItem struct {
	ID, Kind, Reason, Technical, Age string
	Actions                          []rowAction // send again, discard
}

func (p *Pages) consoleOperations(w http.ResponseWriter, r *http.Request) {
	pr, lang, ok := p.consoleAllowed(w, r, superUserOnly)
	if !ok {
		return
	}
	sums, err := p.cfg.Service.DeadLetters(r.Context(), pr)
	if err != nil {
		p.refuse(w, r, err)
		return
	}
	now := p.now()
	page := operationsPage{consolePage: p.consoleBase(r, pr, lang, "console.ops.title", "operations")}
	for _, s := range sums {
		v := deadLetterView{SPID: s.SPID, Name: s.SPName, Count: len(s.Deliveries)}
		counts := map[string]int{}
		for i, d := range s.Deliveries {
			if i == 0 {
				v.Oldest = age(lang, now.Sub(d.CreatedAt))
			}
			// In words: what was to be done and why the application
			// refused it; the technical reason stays beside it.
			plain := failureReason(lang, d.LastError)
			counts[plain]++
			if len(v.Items) < 50 {
				item := deadLetterItem{ID: d.ID, Kind: deliveryKindWords(lang, d.Kind), Reason: plain, Technical: d.LastError, Age: age(lang, now.Sub(d.CreatedAt))}
				id := []hiddenField{{"id", d.ID}}
				item.Actions = []rowAction{
					{Action: "/console/operations/replay", Hidden: id, Button: i18n.T(lang, "console.ops.replay"), ButtonAL: i18n.T(lang, "console.ops.replayOne", item.Kind, item.Age)},
					{Action: "/console/operations/discard", Hidden: id, Button: i18n.T(lang, "console.ops.discard"), ButtonAL: i18n.T(lang, "console.ops.discardOne", item.Kind, item.Age)},
				}
				v.Items = append(v.Items, item)
			}
		}
		for reason, n := range counts {
			v.Reasons = append(v.Reasons, reasonCount{Reason: reason, Count: n})
		}
		sort.Slice(v.Reasons, func(i, j int) bool { return v.Reasons[i].Count > v.Reasons[j].Count })
		page.SPs = append(page.SPs, v)
	}
	runs, err := p.cfg.Service.JobRuns(r.Context(), pr)
	if err != nil {
		p.refuse(w, r, err)
		return
	}
	for _, run := range runs {
		v := jobView{Name: run.Name, When: i18n.T(lang, "console.jobs.never"), Failed: run.Failed, Summary: run.Summary,
			About: i18n.T(lang, "console.jobs.about."+run.Name)}
		if !run.StartedAt.IsZero() {
			v.When = i18n.T(lang, "console.jobs.ago", age(lang, now.Sub(run.StartedAt)))
			v.State = i18n.T(lang, "console.jobs.ok")
			if run.Failed {
				v.State = i18n.T(lang, "console.jobs.failed")
			}
		}
		page.Jobs = append(page.Jobs, v)
	}
	p.render(w, r, http.StatusOK, "console/operations", page)
}

// deliveryKindWords is a delivery's kind in words ("Add a member"), the
// kind itself when the catalogue has no words for it.
func deliveryKindWords(lang string, kind domain.DeliveryKind) string {
	key := "console.delivery." + string(kind)
	if words := i18n.T(lang, key); words != key {
		return words
	}
	return string(kind)
}

// age says how long ago, in the largest whole unit.
func age(lang string, d time.Duration) string {
	switch {
	case d >= 48*time.Hour:
		return i18n.T(lang, "console.age.days", int(d.Hours()/24))
	case d >= 2*time.Hour:
		return i18n.T(lang, "console.age.hours", int(d.Hours()))
	case d < time.Minute:
		return i18n.T(lang, "console.age.now")
	default:
		return i18n.T(lang, "console.age.minutes", int(d.Minutes()))
	}
}

// selection is the dead letters a replay or discard form names: one by
// id, or all of an SP.
func selection(r *http.Request) service.Selection {
	if id := strings.TrimSpace(r.PostFormValue("id")); id != "" {
		return service.Selection{IDs: []string{id}}
	}
	return service.Selection{SPID: strings.TrimSpace(r.PostFormValue("sp"))}
}

func (p *Pages) consoleReplay(w http.ResponseWriter, r *http.Request) {
	pr, _, ok := p.console(w, r)
	if !ok {
		return
	}
	if _, err := p.cfg.Service.Replay(r.Context(), pr, selection(r)); err != nil {
		p.refuse(w, r, err)
		return
	}
	back(w, r, "/console/operations", "replayed")
}

func (p *Pages) consoleDiscard(w http.ResponseWriter, r *http.Request) {
	pr, _, ok := p.console(w, r)
	if !ok {
		return
	}
	if _, err := p.cfg.Service.Discard(r.Context(), pr, selection(r)); err != nil {
		p.refuse(w, r, err)
		return
	}
	back(w, r, "/console/operations", "discarded")
}
