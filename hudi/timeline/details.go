package timeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/hudiscope/hudiscope/hudi/internal/avro"
	"github.com/hudiscope/hudiscope/hudi/problem"
)

// Details is everything stored for one instant, decoded by action. Only the fields that apply
// to the instant's action are set; Content and Plan keep the raw JSON for generic views.
type Details struct {
	Commit       *CommitMetadata
	Clean        *CleanMetadata
	CleanerPlan  *CleanerPlan
	Rollback     *RollbackMetadata
	RollbackPlan *RollbackPlan
	Restore      *RestoreMetadata
	Savepoint    *SavepointMetadata
	Compaction   *CompactionPlan
	Replace      *RequestedReplaceMetadata
	Index        *IndexMetadata
	Content      json.RawMessage // completed (or latest) content as JSON
	Plan         json.RawMessage // requested plan as JSON
	Problems     []problem.Problem
}

// Details reads and decodes an instant's plan and completed metadata. Errors on single files
// are returned in Details.Problems so a drill-down shows what could be read.
func (r *Reader) Details(ctx context.Context, in *Instant) (*Details, error) {
	d := &Details{}
	plan := in.plan()
	if plan == nil {
		if rf := in.requestedFile(); rf != "" {
			plan = r.readContent(ctx, rf, d)
		}
		if plan == nil && in.PlanAction != "" {
			// 0.x compaction/clustering inflights may carry a copy of the plan.
			if f := in.inflightFile(); f != "" {
				plan = r.readContent(ctx, f, d)
			}
		}
	}
	d.Plan = plan
	content := in.content()
	if content == nil && in.State == Completed {
		if cf := in.CompletedFile(); cf != "" {
			content = r.readContent(ctx, cf, d)
		} else if in.lsm != nil && IsWriteAction(in.Action) {
			content = r.lsmContent(ctx, in, d)
		}
	}
	if content == nil && in.State == Inflight {
		if f := in.inflightFile(); f != "" {
			content = r.readContent(ctx, f, d)
		}
	}
	d.Content = content
	planAction := in.PlanAction
	if planAction == "" {
		planAction = in.Action
	}
	if plan != nil {
		var err error
		switch planAction {
		case ActionCompaction, ActionLogCompaction:
			d.Compaction = &CompactionPlan{}
			err = json.Unmarshal(plan, d.Compaction)
		case ActionClustering, ActionReplaceCommit:
			d.Replace = &RequestedReplaceMetadata{}
			err = json.Unmarshal(plan, d.Replace)
		case ActionClean:
			d.CleanerPlan = &CleanerPlan{}
			err = json.Unmarshal(plan, d.CleanerPlan)
		case ActionRollback:
			d.RollbackPlan = &RollbackPlan{}
			err = json.Unmarshal(plan, d.RollbackPlan)
		case ActionIndexing:
			d.Index = &IndexMetadata{}
			err = json.Unmarshal(plan, d.Index)
		}
		if err != nil {
			d.Problems = append(d.Problems, problem.Problem{File: r.path(in.requestedFile()), Err: err.Error()})
		}
	}
	if content != nil {
		var err error
		switch in.Action {
		case ActionCommit, ActionDeltaCommit, ActionReplaceCommit:
			if in.Commit != nil && in.State == Completed {
				d.Commit = in.Commit
			} else {
				d.Commit = &CommitMetadata{}
				err = json.Unmarshal(content, d.Commit)
			}
		case ActionClean:
			if in.State == Completed {
				d.Clean = &CleanMetadata{}
				err = json.Unmarshal(content, d.Clean)
			}
		case ActionRollback:
			if in.State == Completed {
				d.Rollback = &RollbackMetadata{}
				err = json.Unmarshal(content, d.Rollback)
			}
		case ActionRestore:
			if in.State == Completed {
				d.Restore = &RestoreMetadata{}
				err = json.Unmarshal(content, d.Restore)
			}
		case ActionSavepoint:
			d.Savepoint = &SavepointMetadata{}
			err = json.Unmarshal(content, d.Savepoint)
		case ActionIndexing:
			d.Index = &IndexMetadata{}
			err = json.Unmarshal(content, d.Index)
		}
		if err != nil {
			d.Problems = append(d.Problems, problem.Problem{File: r.path(in.CompletedFile()), Err: err.Error()})
		}
	}
	for _, p := range d.Problems {
		r.Problems.AddOnce(p.File, p.Err)
	}
	return d, nil
}

// readContent reads one instant file as JSON; empty files give nil without a problem.
func (r *Reader) readContent(ctx context.Context, p string, d *Details) json.RawMessage {
	b, err := r.Store.ReadFile(ctx, p)
	if err != nil {
		d.Problems = append(d.Problems, problem.Problem{File: r.path(p), Err: err.Error()})
		return nil
	}
	js, err := avro.ContentJSON(b)
	if errors.Is(err, avro.ErrEmpty) {
		return nil
	}
	if err != nil {
		d.Problems = append(d.Problems, problem.Problem{File: r.path(p), Err: fmt.Sprint(err)})
		return nil
	}
	return js
}
