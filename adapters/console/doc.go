// Package console is the terminal adapter: a chat with Haven on standard
// input and output, with no account anywhere. It is interactive in a
// terminal (a prompt before each line) and scriptable when input is piped:
// it reads lines, and the Hub prints each reply; at the end of input Run
// returns and the Hub drains, so every reply is printed before Haven exits.
//
// Files (an export) are saved into a folder (Options.FileDir, by default
// "haven-exports" in the current directory) and the reply says where.
package console
