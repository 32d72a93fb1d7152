package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/havenbot/haven/safety"
	"github.com/havenbot/haven/safety/crisiseval"
)

func main() {
	f := safety.NewFloor()
	rows, _ := crisiseval.ReadRows(os.Args[1])
	mode := os.Args[2]
	n := 0
	for i, r := range rows {
		a := f.Assess(safety.Input{Text: r.Text})
		gold := -1
		if r.Level != nil {
			gold = *r.Level
		} else {
			gold = *r.MaxLevel
		}
		show := false
		switch mode {
		case "miss":
			show = gold >= 2 && a.Level < 2
		case "fp":
			show = gold < 2 && a.Level >= 2
		}
		if show {
			n++
			t := strings.ReplaceAll(r.Text, "\n", " ")
			if len(t) > 700 {
				t = t[:700]
			}
			fmt.Printf("#%d g%d p%d %v | %s\n\n", i, gold, a.Level, a.Path, t)
		}
	}
	fmt.Println(n)
}
