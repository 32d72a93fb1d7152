package safety

import (
	"context"
	"testing"
)

func TestFloorLevels(t *testing.T) {
	cases := []struct {
		name string
		in   Input
		want Level
	}{
		{"clear active ideation is level 2", Input{Text: "I want to kill myself"}, 2},
		{"exam idiom is level 0", Input{Text: "this exam is killing me"}, 0},
		{"negated ideation is level 0", Input{Text: "I would never kill myself"}, 0},
		{"negative wish to live is level 2", Input{Text: "I don't want to live anymore"}, 2},
		{"passive wish not to wake up is level 2", Input{Text: "I wish I could go to sleep and not wake up"}, 2},
		{"intent with timing is level 3", Input{Text: "I'm going to kill myself tonight"}, 3},
		{"written note is level 3", Input{Text: "I already wrote my note to my mom"}, 3},
		{"self-injury is level 2", Input{Text: "I cut myself again last night"}, 2},
		{"accidental cut is level 0", Input{Text: "I cut myself cooking dinner"}, 0},
		{"third party is level 0", Input{Text: "my brother said he wants to die"}, 0},
		{"a parent called by name who overdosed is a third party", Input{Text: "dad overdosed on his heart pills last night"}, 0},
		{"a relative in hospital after an overdose is a third party", Input{Text: "my aunt is in the hospital after taking too many pills"}, 0},
		{"topic question is level 0", Input{Text: "what is the suicide rate in Japan"}, 0},
		{"past and recovered is level 0", Input{Text: "I used to want to die, I'm in a better place now"}, 0},
		{"skull emoji idiom is level 0", Input{Text: "I'm dead 💀"}, 0},
		{"kill me lol is below crisis", Input{Text: "kill me lol"}, 0},
		{"python process is level 0", Input{Text: "How can I kill a Python process?"}, 0},
		{"killing time is level 0", Input{Text: "What are good ways of killing time at the airport?"}, 0},
		{"hopelessness is level 1", Input{Text: "I feel so hopeless lately"}, 1},
		{"can't go on is level 1", Input{Text: "I can't go on like this anymore"}, 1},
		{"several warning families with wanting it to stop is level 2", Input{Text: "I'm so done. I'm tired of everything, nothing matters and I feel worthless"}, 2},
		{"ordinary stress is level 0", Input{Text: "work has been stressful and I'm behind on emails"}, 0},
		{"a plan said plainly beside ideation is level 3", Input{Text: "I want to kill myself. I've been working out a plan"}, 3},
		{"a handful taken beside ideation is level 3", Input{Text: "I don't want to be alive anymore so I took a handful"}, 3},
		{"on the roof beside ideation is level 3", Input{Text: "I'm on the roof and I want to die"}, 3},
		{"a plan for an essay stays level 0", Input{Text: "I made a plan for my essay tonight"}, 0},
		{"a plan to die said plainly is level 3", Input{Text: "I planned on dying today"}, 3},
		{"the hill idiom stays level 0", Input{Text: "I plan to die on this hill"}, 0},
		{"dyeing hair misspelt stays level 0", Input{Text: "I was planning to die my hair blue"}, 0},
		{"sitting on the roof with friends stays level 0", Input{Text: "we were sitting on the roof watching fireworks"}, 0},
		{"denial after safety question lowers to 0", Input{Text: "no, I'm not", AskedSafetyQuestion: true, History: []string{"I can't do this anymore"}}, 0},
		{"affirmation after safety question is level 2", Input{Text: "yeah, sometimes", AskedSafetyQuestion: true}, 2},
		{"preparation after earlier ideation is level 3", Input{Text: "I've saved up enough pills", History: []string{"I want to die"}}, 3},
	}
	f := NewFloor()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := f.Assess(c.in)
			if got.Level != c.want {
				t.Errorf("level = %d, want %d (path %v)", got.Level, c.want, got.Path)
			}
			wc, wq := Decide(got.Level)
			if got.NeedsCrisisResponse != wc || got.NeedsClarification != wq {
				t.Errorf("derived flags do not follow Decide: %+v", got)
			}
			if len(got.Path) == 0 || got.Path[0] != "floor" {
				t.Errorf("path = %v, want it to start with floor", got.Path)
			}
		})
	}
}

func TestFloorFlags(t *testing.T) {
	f := NewFloor()
	if a := f.Assess(Input{Text: "my best friend keeps saying she wants to kill herself"}); !a.Flags.ThirdParty {
		t.Errorf("third_party not set: %+v", a)
	}
	if a := f.Assess(Input{Text: "I've been cutting my arms again"}); !a.Flags.SelfInjury || a.Level < 2 {
		t.Errorf("self_injury not set at level 2: %+v", a)
	}
}

func TestGateWithoutLLMIsTheFloor(t *testing.T) {
	g := NewGate(GateOptions{})
	f := NewFloor()
	for _, s := range []string{"I want to kill myself", "this exam is killing me", "I feel hopeless"} {
		got := g.Assess(context.Background(), Input{Text: s})
		want := f.Assess(Input{Text: s})
		if got.Level != want.Level || got.Reason != want.Reason {
			t.Errorf("gate %+v != floor %+v", got, want)
		}
	}
}
