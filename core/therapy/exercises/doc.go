// Package exercises holds Haven's guided exercises: box breathing, 5-4-3-2-1
// grounding, a CBT thought record, ACT cognitive defusion, DBT STOP and TIPP,
// progressive muscle relaxation, a values check, a worry postponement plan
// and three good things.
//
// Each exercise is a fixed list of steps with stable IDs, so that the current
// step can be saved in a session checkpoint (exercise type and step id) and
// picked up after a restart. The package is pure: it knows the steps, their
// wording and what a person's message means for the current step (Read); the
// caller keeps the state and writes the reply around it.
package exercises
