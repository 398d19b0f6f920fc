package pgwire

import "context"

// execContexts hands out the contexts that a session's executions run
// under: children of the session's context, so that its end stops them,
// each canceled alone by CancelRequest (conn.cancelRunning).
//
// A context that nothing canceled is kept for the session's next
// execution: a client running one quick statement after another would
// otherwise make a context, and register it with the session's (a lock and
// a map insert, and their undoing), for every one. One context is kept at
// most, and only while no execution holds it: a suspended portal keeps its
// own, so canceling one execution never cancels another.
type execContexts struct {
	parent context.Context
	spare  context.Context
	cancel context.CancelFunc
}

// get returns a live context and its CancelFunc; the caller gives both
// back with put once the execution is over.
func (x *execContexts) get() (context.Context, context.CancelFunc) {
	if ctx, cancel := x.spare, x.cancel; ctx != nil {
		x.spare, x.cancel = nil, nil
		if ctx.Err() == nil {
			return ctx, cancel
		}
		cancel()
	}
	return context.WithCancel(x.parent)
}

// put takes back a context from get: kept for the next execution if no one
// canceled it, else released.
func (x *execContexts) put(ctx context.Context, cancel context.CancelFunc) {
	if x.spare == nil && ctx.Err() == nil {
		x.spare, x.cancel = ctx, cancel
		return
	}
	cancel()
}
