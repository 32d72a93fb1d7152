package safety

// DangerLine returns one sentence to add to an ordinary reply when the
// assessment flags danger that is not suicide risk: the person is being hurt
// or threatened (abuse_or_danger), or speaks of hurting someone else
// (harm_to_others). It names the country's emergency number from the
// directory, or the local emergency number when the country is unknown, and
// asks no question (the reply keeps its own one question). It returns ""
// when neither flag is set.
func DangerLine(a Assessment, country string) string {
	number := "your local emergency number"
	if e, ok := defaultDirectory.Emergency(country); ok && country != "" && defaultDirectory.Has(country) {
		number = e.Phone
	}
	switch {
	case a.Flags.AbuseOrDanger:
		return "You deserve to be safe. If you're in danger right now, please call " + number + ", and if you can, reach a person you trust."
	case a.Flags.HarmToOthers:
		return "If you feel you might act on it, please put some distance between you and them now, and call " + number + " if anyone is in danger."
	}
	return ""
}

// ReminderLine returns one sentence naming the country's first helpline
// again (numbers only from the directory), for an ordinary reply that ends
// a session in which Haven gave crisis resources: the person leaves knowing
// where help is. "" when the directory has no helpline for the country or
// the fallback.
func ReminderLine(country string) string {
	h := defaultDirectory.Helplines(country)
	if len(h) == 0 {
		return ""
	}
	return followUpLine(h[0], 0)
}
