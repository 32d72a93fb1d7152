// Package reply assembles the text of one ordinary reply from its parts:
// the branch's statements, one remembered thing, the one question (the
// crisis gate's safety question when it asked for one) and a safety notice.
// Every branch's reply goes through Assemble, so the order of the parts and
// the length limit are decided here and nowhere else.
package reply
