// Package core is Haven's engine. One turn runs as a small graph: a pure
// router (route) picks the next node from the turn's state, each node does one
// thing and returns to the router, and a step limit stops loops:
//
//	gateway -> crisis gate -> (crisis reply | load memory -> dispatch -> therapeutic | task) -> finalize
//
// Core alone decides the branch (dispatch.go): the therapeutic branch
// (core/therapy) or the task branch (task_node.go). Each branch keeps its
// session state in one opaque, versioned slot of the checkpoint, loaded at
// the gateway and saved at finalize; every ordinary reply is put together by
// core/reply.
//
// Engine.Handle runs one turn for one inbound message and returns the
// outbound messages; the channels Hub delivers them.
package core
