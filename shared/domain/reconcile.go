package domain

import "context"

// ReconcileOptions tune one reconcile run at one SP.
type ReconcileOptions struct {
	// DryRun plans the repairs and changes nothing.
	DryRun bool
	// MaxDeleteShare is the largest share (0 to 1) of the resources the
	// service holds at the SP that a run may delete; a plan deleting more
	// is not carried out (a misconfigured SP address, or an SP answering
	// with someone else's data, must not empty it). 0 means the default.
	MaxDeleteShare float64
}

// DefaultMaxDeleteShare is the guard when ReconcileOptions leave it 0.
const DefaultMaxDeleteShare = 0.2

// RepairAction is one kind of repair a reconcile run makes at an SP.
type RepairAction string

const (
	RepairCreateUser     RepairAction = "create-user"     // linked, but gone at the SP
	RepairUpdateUser     RepairAction = "update-user"     // at the SP with stale attributes
	RepairDeleteUser     RepairAction = "delete-user"     // at the SP, gone from the service
	RepairCreateGroup    RepairAction = "create-group"    // linked, but gone at the SP
	RepairReplaceMembers RepairAction = "replace-members" // members at the SP differ
	RepairDeleteGroup    RepairAction = "delete-group"    // at the SP, role gone or no longer at the SP
)

// Repair is one planned (or made) repair.
type Repair struct {
	Action   RepairAction
	Kind     ResourceKind
	LocalID  int64
	RemoteID string
	// Detail says what differs, e.g. the missing and extra members.
	Detail string
	// Error is set when the repair was tried and failed.
	Error string
}

// ReconcileReport is what a reconcile run found and did at one SP.
type ReconcileReport struct {
	SP     string
	DryRun bool
	// Users and Groups are the linked resources compared.
	Users, Groups int
	// Listed says whether the SP's listing was read (else each resource
	// was read by its SP-side id).
	Listed  bool
	Repairs []Repair
	// Stopped is set when the guard stopped the run before any change.
	Stopped string
	// Repaired and Failed count the repairs made and failed.
	Repaired, Failed int
}

// Reconciler compares what the service says an SP holds with what it holds
// and repairs the difference. Errors: NotFound for an unknown SP; an SP
// that cannot be read fails the run before any change.
type Reconciler interface {
	Reconcile(ctx context.Context, spID string, opts ReconcileOptions) (ReconcileReport, error)
}

// BackgroundReconciler starts a reconcile run elsewhere (the reconcile
// function, which has the time and the SP credentials) and returns at
// once; the run records its outcome as the job run ReconcileJobName(jobID).
type BackgroundReconciler interface {
	StartReconcile(ctx context.Context, jobID, spID string, opts ReconcileOptions) error
}

// ReconcileJobName is the job run name of an on-demand reconcile run.
func ReconcileJobName(jobID string) string { return "reconcile#" + jobID }
