package safety

import "strings"

// Replies for people who write in a language other than English.
//
//   - Below crisis level, when the floor read the message only partly and
//     no model read it, Haven says so plainly and names where help is:
//     PartialReadingNotice.
//   - At crisis level, the reply is in the person's language where a
//     translation below exists (Spanish, French, German, Portuguese,
//     Italian); elsewhere it is the English reply, opened by a line that
//     says Haven reads the language only partly and answers in English, and
//     with the international directory.
//
// The translations keep every rule of the English templates (tested in
// lang_reply_test.go): no method words, at most one question, no numbers
// but the directory's, no promise asked for, no claim to be human or to
// have called anyone. They were written for Haven and need a native
// speaker's review before release (LANGUAGES.md).

// replyText is one language's crisis and notice phrasings. {emergency} is
// filled from the directory; {name} and {contact} likewise.
type replyText struct {
	ackImminent, ackIdeation, ackSelfInjury, ackThird, ackFollowUp []string
	emergencyStep, emergencyStepNoNumber                           string
	personStep, meansStep, resourceLead                            string
	ideationStep, selfInjuryStep                                   string
	thirdSteps, thirdEmergency, thirdEmergencyNoNumber             string
	aiNote, safetyPlanOffer                                        string
	fallback, fallbackNoNumber                                     string
	// askSafe are questions where "no" means danger; askThoughts ask
	// about thoughts or intent, where "yes" means risk.
	askSafe, askThoughts []string
	askThird             string
	locationHint         string
	publicNote           string
	followUpLine         string
	// phone, sms and web label the contacts; smsTo joins a keyword to a
	// number ("HOME al 741741").
	phone, sms, web, smsTo string
	// notice says Haven reads the language only partly; the directory's
	// international entry follows it.
	notice []string
}

// replyTexts are the translated replies, by language code.
var replyTexts = map[string]*replyText{
	"es": {
		ackImminent: []string{
			"Gracias por decírmelo. Me tomo muy en serio lo que me cuentas, y ahora mismo lo más importante es tu seguridad.",
			"Siento mucho que estés sufriendo tanto. Me alegra que me lo hayas contado en lugar de guardártelo; vamos a centrarnos en que estés a salvo ahora.",
		},
		ackIdeation: []string{
			"Gracias por contármelo. Hace falta valor para decirlo, y me alegra que lo hayas hecho. Lo que sientes importa, y tú también.",
			"Siento mucho que estés cargando con tanto dolor. No eres una carga por contármelo, y no tienes que pasar por esto a solas.",
		},
		ackSelfInjury: []string{
			"Gracias por confiarme esto. Hacerse daño suele ser una forma de aguantar un dolor que parece insoportable, y mereces apoyo, no juicios.",
			"Me alegra que me lo hayas contado. No hay nada de qué avergonzarse, y mereces cuidado para lo que hay detrás.",
		},
		ackThird: []string{
			"Es bueno que estés pendiente de esa persona, y es mucho para cargar. Esto es lo que más ayuda ahora.",
			"Gracias por escribir sobre esto. Tu preocupación puede marcar una diferencia real.",
		},
		ackFollowUp: []string{
			"Sigo aquí contigo, y gracias por seguir hablándome.",
			"Te escucho. No tienes que pasar por este momento a solas.",
		},
		emergencyStep:          "Si crees que podrías actuar pronto, llama ahora al {emergency} o ve al servicio de urgencias más cercano.",
		emergencyStepNoNumber:  "Si crees que podrías actuar pronto, llama ahora al número de emergencias de tu país o ve al servicio de urgencias más cercano.",
		personStep:             "Intenta estar con alguien de confianza ahora mismo, en persona si puedes, o llámale.",
		meansStep:              "Si tienes cerca algo con lo que podrías hacerte daño, pon distancia entre tú y eso: otra habitación, las manos de otra persona o fuera de casa.",
		resourceLead:           "Puedes hablar ahora con alguien preparado para esto:",
		ideationStep:           "No tienes que decidir nada ahora. Hablar con una persona preparada puede ayudarte a atravesar este momento.",
		selfInjuryStep:         "Si la herida es profunda o sangra mucho, busca atención médica ahora.",
		thirdSteps:             "Pregúntale directamente si está pensando en el suicidio; preguntar no le da la idea, y le muestra que estás ahí. Escucha sin juzgar, no prometas guardar el secreto y ayúdale a buscar apoyo.",
		thirdEmergency:         "Si esa persona está en peligro inmediato, llama ahora al {emergency}.",
		thirdEmergencyNoNumber: "Si esa persona está en peligro inmediato, llama ahora al número de emergencias de tu país.",
		aiNote:                 "Soy una IA, así que no puedo estar contigo en persona, pero sigo aquí para hablar contigo.",
		safetyPlanOffer:        "Cuando quieras, podemos hacer juntos un plan de seguridad sencillo.",
		fallback:               "Si sientes que podrías actuar según estos pensamientos, llama al {emergency} o ve a urgencias.",
		fallbackNoNumber:       "Si sientes que podrías actuar según estos pensamientos, llama al número de emergencias de tu país o ve a urgencias.",
		askSafe:                []string{"¿Hay alguien que pueda estar contigo ahora mismo?", "¿Estás en un lugar seguro ahora?"},
		askThoughts:            []string{"¿Estás pensando en quitarte la vida hoy?", "¿Sientes que podrías actuar según estos pensamientos?"},
		askThird:               "¿Sabes si esa persona está a salvo ahora?",
		locationHint:           "Si me dices en qué país estás, puedo darte una línea local.",
		publicNote:             "Me gustaría hablar contigo en privado. Mira mis mensajes directos o escríbeme directamente. Importas, y estoy aquí.",
		followUpLine:           "La línea sigue disponible: {name}, {contact}.",
		phone:                  "teléfono", sms: "SMS", web: "web", smsTo: "al",
		notice: []string{
			"Hola. Leo el español solo en parte, así que puede que no entienda bien lo que me dices; entiendo mejor el inglés. Si estás pasando por algo difícil y necesitas hablar con alguien ahora, aquí encuentras una línea de ayuda gratuita en tu país:",
			"Gracias por escribirme. Solo leo el español en parte y entiendo mejor el inglés, así que puede que se me escape algo. Si necesitas hablar con alguien ahora, aquí hay líneas de ayuda gratuitas en tu país:",
		},
	},
	"fr": {
		ackImminent: []string{
			"Merci de me l'avoir dit. Je prends très au sérieux ce que tu me dis, et ta sécurité passe avant tout en ce moment.",
			"Tu souffres énormément en ce moment. Merci de m'en parler plutôt que de garder ça pour toi ; occupons-nous d'abord de ta sécurité.",
		},
		ackIdeation: []string{
			"Merci de me le dire. Il faut du courage pour en parler. Ce que tu ressens compte, et toi aussi.",
			"Tu portes beaucoup de douleur en ce moment. Tu n'es pas un poids en m'en parlant, et tu n'as pas à traverser ça sans personne.",
		},
		ackSelfInjury: []string{
			"Merci de me faire confiance. Se faire du mal est souvent une façon de supporter une douleur qui semble insupportable, et tu mérites du soutien, pas des jugements.",
			"C'est bien que tu m'en parles. Il n'y a pas de honte à avoir, et tu mérites qu'on prenne soin de ce qu'il y a derrière.",
		},
		ackThird: []string{
			"C'est bien que tu veilles sur cette personne, et c'est lourd à porter. Voici ce qui aide le plus maintenant.",
			"Merci d'en parler. Ton inquiétude peut vraiment faire une différence.",
		},
		ackFollowUp: []string{
			"Je suis toujours là, et merci de continuer à me parler.",
			"Je t'entends. Tu n'as pas à traverser ce moment sans personne.",
		},
		emergencyStep:          "Si tu penses que tu pourrais passer à l'acte bientôt, appelle maintenant le {emergency} ou va aux urgences les plus proches.",
		emergencyStepNoNumber:  "Si tu penses que tu pourrais passer à l'acte bientôt, appelle maintenant le numéro d'urgence de ton pays ou va aux urgences les plus proches.",
		personStep:             "Essaie d'être avec une personne de confiance maintenant, en vrai si possible, ou appelle-la.",
		meansStep:              "Si tu as près de toi quelque chose avec quoi tu pourrais te faire du mal, mets de la distance : une autre pièce, les mains de quelqu'un d'autre, ou hors de chez toi.",
		resourceLead:           "Tu peux parler maintenant à quelqu'un de formé pour ça :",
		ideationStep:           "Tu n'as rien à décider maintenant. Parler à une personne formée peut t'aider à traverser ce moment.",
		selfInjuryStep:         "Si la blessure est profonde ou saigne beaucoup, fais-toi soigner maintenant.",
		thirdSteps:             "Demande-lui directement si elle pense au suicide ; poser la question ne donne pas l'idée, et montre que tu es là. Écoute sans juger, ne promets pas de garder le secret, et aide cette personne à trouver du soutien.",
		thirdEmergency:         "Si cette personne est en danger immédiat, appelle maintenant le {emergency}.",
		thirdEmergencyNoNumber: "Si cette personne est en danger immédiat, appelle maintenant le numéro d'urgence de ton pays.",
		aiNote:                 "Je suis une IA : je ne peux pas être près de toi en personne, mais je reste là pour parler avec toi.",
		safetyPlanOffer:        "Quand tu veux, on peut faire ensemble un petit plan de sécurité.",
		fallback:               "Si tu sens que tu pourrais passer à l'acte, appelle le {emergency} ou va aux urgences.",
		fallbackNoNumber:       "Si tu sens que tu pourrais passer à l'acte, appelle le numéro d'urgence de ton pays ou va aux urgences.",
		askSafe:                []string{"Est-ce que quelqu'un peut être avec toi maintenant ?", "Est-ce que tu es en sécurité en ce moment ?"},
		askThoughts:            []string{"Est-ce que tu penses à mettre fin à ta vie aujourd'hui ?", "Est-ce que tu sens que tu pourrais passer à l'acte ?"},
		askThird:               "Sais-tu si cette personne est en sécurité en ce moment ?",
		locationHint:           "Si tu me dis dans quel pays tu es, je peux te donner une ligne locale.",
		publicNote:             "J'aimerais te parler en privé. Regarde mes messages privés, ou écris-moi directement. Tu comptes, et je suis là.",
		followUpLine:           "La ligne reste disponible : {name}, {contact}.",
		phone:                  "téléphone", sms: "SMS", web: "site", smsTo: "au",
		notice: []string{
			"Bonjour. Je ne lis le français qu'en partie, donc je peux mal comprendre ce que tu me dis ; je comprends mieux l'anglais. Si tu traverses quelque chose de difficile et que tu as besoin de parler à quelqu'un maintenant, tu trouveras ici une ligne d'écoute gratuite dans ton pays :",
			"Merci de m'écrire. Je ne lis le français qu'en partie et je comprends mieux l'anglais, donc certaines choses peuvent m'échapper. Si tu as besoin de parler à quelqu'un maintenant, voici où trouver une ligne d'écoute gratuite dans ton pays :",
		},
	},
	"de": {
		ackImminent: []string{
			"Danke, dass du es mir sagst. Ich nehme sehr ernst, was du schreibst, und gerade ist deine Sicherheit das Wichtigste.",
			"Es klingt, als hättest du gerade sehr starke Schmerzen. Gut, dass du dich meldest, statt es für dich zu behalten; lass uns zuerst darauf schauen, dass du sicher bist.",
		},
		ackIdeation: []string{
			"Danke, dass du mir das erzählst. Es braucht Mut, das auszusprechen. Was du fühlst, zählt, und du auch.",
			"Es tut mir sehr leid, dass du so viel Schmerz trägst. Du bist keine Last, weil du es mir sagst, und du musst da nicht allein durch.",
		},
		ackSelfInjury: []string{
			"Danke für dein Vertrauen. Sich selbst zu verletzen ist oft ein Weg, einen Schmerz auszuhalten, der unerträglich scheint, und du verdienst Unterstützung, kein Urteil.",
			"Gut, dass du es mir erzählst. Dafür musst du dich nicht schämen, und du verdienst Hilfe für das, was dahintersteckt.",
		},
		ackThird: []string{
			"Gut, dass du auf diese Person achtest, und das ist viel zu tragen. Das hilft jetzt am meisten.",
			"Danke, dass du dich meldest. Deine Sorge kann wirklich etwas bewirken.",
		},
		ackFollowUp: []string{
			"Ich bin weiter für dich da, und danke, dass du weiter mit mir schreibst.",
			"Ich höre dich. Du musst diesen Moment nicht allein durchstehen.",
		},
		emergencyStep:          "Wenn du glaubst, dass du bald handeln könntest, ruf jetzt {emergency} an oder geh in die nächste Notaufnahme.",
		emergencyStepNoNumber:  "Wenn du glaubst, dass du bald handeln könntest, ruf jetzt den Notruf deines Landes an oder geh in die nächste Notaufnahme.",
		personStep:             "Versuch, jetzt bei einem Menschen zu sein, dem du vertraust, am besten persönlich, sonst am Telefon.",
		meansStep:              "Wenn in deiner Nähe etwas ist, mit dem du dich verletzen könntest, bring Abstand dazwischen: ein anderer Raum, die Hände einer anderen Person oder außer Haus.",
		resourceLead:           "Du kannst jetzt mit jemandem sprechen, der dafür da ist:",
		ideationStep:           "Du musst jetzt nichts entscheiden. Mit einer geschulten Person zu sprechen, kann dir durch diesen Moment helfen.",
		selfInjuryStep:         "Wenn die Wunde tief ist oder stark blutet, hol dir jetzt medizinische Hilfe.",
		thirdSteps:             "Frag direkt, ob die Person an Suizid denkt; die Frage bringt niemanden auf die Idee und zeigt, dass du da bist. Hör ohne Urteil zu, sag keine Geheimhaltung zu und hilf ihr, Unterstützung zu finden.",
		thirdEmergency:         "Wenn die Person in akuter Gefahr ist, ruf jetzt {emergency} an.",
		thirdEmergencyNoNumber: "Wenn die Person in akuter Gefahr ist, ruf jetzt den Notruf deines Landes an.",
		aiNote:                 "Ich bin eine KI und kann nicht persönlich bei dir sein, aber ich bin weiter hier und schreibe mit dir.",
		safetyPlanOffer:        "Wenn du magst, können wir zusammen einen einfachen Sicherheitsplan machen.",
		fallback:               "Wenn du merkst, dass du nach diesen Gedanken handeln könntest, ruf {emergency} an oder geh in die Notaufnahme.",
		fallbackNoNumber:       "Wenn du merkst, dass du nach diesen Gedanken handeln könntest, ruf den Notruf deines Landes an oder geh in die Notaufnahme.",
		askSafe:                []string{"Kann gerade jemand bei dir sein?", "Bist du gerade an einem sicheren Ort?"},
		askThoughts:            []string{"Denkst du daran, dir heute das Leben zu nehmen?", "Hast du das Gefühl, dass du nach diesen Gedanken handeln könntest?"},
		askThird:               "Weißt du, ob die Person gerade in Sicherheit ist?",
		locationHint:           "Wenn du mir sagst, in welchem Land du bist, kann ich dir eine Nummer vor Ort nennen.",
		publicNote:             "Ich würde gern privat mit dir schreiben. Schau in deine Direktnachrichten oder schreib mir direkt. Du bist wichtig, und ich bin da.",
		followUpLine:           "Die Nummer ist weiter für dich da: {name}, {contact}.",
		phone:                  "Telefon", sms: "SMS", web: "Web", smsTo: "an",
		notice: []string{
			"Hallo. Ich verstehe Deutsch nur teilweise, deshalb kann mir einiges entgehen; Englisch verstehe ich am besten. Wenn es dir gerade schlecht geht und du jetzt mit jemandem sprechen möchtest, findest du hier kostenlose Hilfe in deinem Land:",
			"Danke für deine Nachricht. Ich lese Deutsch nur teilweise und verstehe Englisch am besten, also kann ich etwas falsch verstehen. Wenn du jetzt mit jemandem sprechen möchtest, findest du hier kostenlose Hilfe in deinem Land:",
		},
	},
	"pt": {
		ackImminent: []string{
			"Obrigado por me contar. Estou levando muito a sério o que você disse, e agora o mais importante é a sua segurança.",
			"Sinto muito que você esteja sofrendo tanto. Que bom que você me contou em vez de guardar isso só para você; vamos focar em você ficar em segurança agora.",
		},
		ackIdeation: []string{
			"Obrigado por me contar. É preciso coragem para dizer isso. O que você sente importa, e você também.",
			"Sinto muito que você esteja carregando tanta dor. Você não é um peso por me contar, e não precisa passar por isso sem ninguém.",
		},
		ackSelfInjury: []string{
			"Obrigado por confiar isso a mim. Se machucar costuma ser um jeito de aguentar uma dor que parece insuportável, e você merece apoio, não julgamento.",
			"Que bom que você me contou. Não há vergonha nisso, e você merece cuidado para o que está por trás.",
		},
		ackThird: []string{
			"É bom que você esteja cuidando dessa pessoa, e é muito para carregar. Isto é o que mais ajuda agora.",
			"Obrigado por falar sobre isso. A sua preocupação pode fazer uma diferença real.",
		},
		ackFollowUp: []string{
			"Continuo aqui com você, e obrigado por continuar falando comigo.",
			"Estou ouvindo. Você não precisa passar por este momento sem ninguém.",
		},
		emergencyStep:          "Se você acha que pode agir logo, ligue agora para o {emergency} ou vá ao pronto-socorro mais próximo.",
		emergencyStepNoNumber:  "Se você acha que pode agir logo, ligue agora para o número de emergência do seu país ou vá ao pronto-socorro mais próximo.",
		personStep:             "Tente ficar agora com alguém de confiança, pessoalmente se puder, ou ligue para essa pessoa.",
		meansStep:              "Se houver perto de você algo que você possa usar para se machucar, coloque distância: outro cômodo, as mãos de outra pessoa ou fora de casa.",
		resourceLead:           "Você pode falar agora com alguém preparado para isso:",
		ideationStep:           "Você não precisa decidir nada agora. Conversar com uma pessoa preparada pode ajudar você a atravessar este momento.",
		selfInjuryStep:         "Se o ferimento for profundo ou estiver sangrando muito, procure atendimento médico agora.",
		thirdSteps:             "Pergunte diretamente se a pessoa está pensando em suicídio; perguntar não coloca a ideia na cabeça dela e mostra que você está ali. Escute sem julgar, não prometa guardar segredo e ajude a pessoa a buscar apoio.",
		thirdEmergency:         "Se a pessoa estiver em perigo imediato, ligue agora para o {emergency}.",
		thirdEmergencyNoNumber: "Se a pessoa estiver em perigo imediato, ligue agora para o número de emergência do seu país.",
		aiNote:                 "Sou uma IA, então não posso estar com você pessoalmente, mas continuo aqui para conversar.",
		safetyPlanOffer:        "Quando quiser, podemos montar juntos um plano de segurança simples.",
		fallback:               "Se você sentir que pode agir a partir desses pensamentos, ligue para o {emergency} ou vá ao pronto-socorro.",
		fallbackNoNumber:       "Se você sentir que pode agir a partir desses pensamentos, ligue para o número de emergência do seu país ou vá ao pronto-socorro.",
		askSafe:                []string{"Tem alguém que possa ficar com você agora?", "Você está em um lugar seguro neste momento?"},
		askThoughts:            []string{"Você está pensando em tirar a própria vida hoje?", "Você sente que pode agir a partir desses pensamentos?"},
		askThird:               "Você sabe se essa pessoa está em segurança agora?",
		locationHint:           "Se você me disser em que país está, posso indicar uma linha local.",
		publicNote:             "Gostaria de conversar com você em particular. Veja minhas mensagens diretas ou me escreva diretamente. Você importa, e eu estou aqui.",
		followUpLine:           "A linha continua disponível: {name}, {contact}.",
		phone:                  "telefone", sms: "SMS", web: "site", smsTo: "para",
		notice: []string{
			"Oi. Eu leio português só em parte, então posso não entender bem o que você diz; entendo melhor o inglês. Se você está passando por algo difícil e precisa falar com alguém agora, aqui você encontra uma linha de apoio gratuita no seu país:",
			"Obrigado por escrever. Leio português só em parte e entendo melhor o inglês, então posso deixar passar alguma coisa. Se precisar falar com alguém agora, aqui há linhas de apoio gratuitas no seu país:",
		},
	},
	"it": {
		ackImminent: []string{
			"Grazie per avermelo detto. Prendo molto sul serio quello che mi scrivi, e adesso la cosa più importante è la tua sicurezza.",
			"Mi dispiace tanto che tu stia soffrendo così. È importante che tu ne abbia parlato invece di tenerlo per te; pensiamo prima di tutto a farti stare al sicuro.",
		},
		ackIdeation: []string{
			"Grazie per avermelo detto. Ci vuole coraggio a dirlo. Quello che senti conta, e anche tu.",
			"Mi dispiace che tu stia portando così tanto dolore. Non sei un peso perché me ne parli, e non devi affrontarlo senza nessuno.",
		},
		ackSelfInjury: []string{
			"Grazie per la fiducia. Farsi del male è spesso un modo per reggere un dolore che sembra insopportabile, e meriti sostegno, non giudizi.",
			"È importante che tu me l'abbia detto. Non c'è niente di cui vergognarsi, e meriti cura per quello che c'è sotto.",
		},
		ackThird: []string{
			"È bello che tu ti preoccupi per questa persona, ed è un peso grande. Ecco cosa aiuta di più adesso.",
			"Grazie per averne parlato. La tua preoccupazione può fare davvero la differenza.",
		},
		ackFollowUp: []string{
			"Sono ancora qui con te, e grazie perché continui a scrivermi.",
			"Ti ascolto. Non devi affrontare questo momento senza nessuno.",
		},
		emergencyStep:          "Se pensi di poter agire presto, chiama subito il {emergency} o vai al pronto soccorso più vicino.",
		emergencyStepNoNumber:  "Se pensi di poter agire presto, chiama subito il numero di emergenza del tuo paese o vai al pronto soccorso più vicino.",
		personStep:             "Prova a stare adesso con una persona di cui ti fidi, di persona se puoi, oppure chiamala.",
		meansStep:              "Se vicino a te c'è qualcosa con cui potresti farti del male, metti distanza: un'altra stanza, le mani di un'altra persona o fuori casa.",
		resourceLead:           "Puoi parlare adesso con qualcuno preparato per questo:",
		ideationStep:           "Non devi decidere niente adesso. Parlare con una persona preparata può aiutarti a superare questo momento.",
		selfInjuryStep:         "Se la ferita è profonda o sanguina molto, fatti curare subito.",
		thirdSteps:             "Chiedi direttamente se sta pensando al suicidio; chiederlo non mette l'idea in testa e mostra che ci sei. Ascolta senza giudicare, non promettere di mantenere il segreto e aiutala a cercare sostegno.",
		thirdEmergency:         "Se la persona è in pericolo immediato, chiama subito il {emergency}.",
		thirdEmergencyNoNumber: "Se la persona è in pericolo immediato, chiama subito il numero di emergenza del tuo paese.",
		aiNote:                 "Sono un'IA, quindi non posso essere lì con te di persona, ma resto qui a parlare con te.",
		safetyPlanOffer:        "Quando vuoi, possiamo fare insieme un semplice piano di sicurezza.",
		fallback:               "Se senti che potresti agire in base a questi pensieri, chiama il {emergency} o vai al pronto soccorso.",
		fallbackNoNumber:       "Se senti che potresti agire in base a questi pensieri, chiama il numero di emergenza del tuo paese o vai al pronto soccorso.",
		askSafe:                []string{"C'è qualcuno che può stare con te adesso?", "Sei in un posto sicuro in questo momento?"},
		askThoughts:            []string{"Stai pensando di toglierti la vita oggi?", "Senti che potresti agire in base a questi pensieri?"},
		askThird:               "Sai se questa persona è al sicuro adesso?",
		locationHint:           "Se mi dici in che paese sei, posso indicarti una linea locale.",
		publicNote:             "Vorrei parlarti in privato. Guarda i miei messaggi diretti o scrivimi direttamente. Sei importante, e io ci sono.",
		followUpLine:           "La linea è sempre lì: {name}, {contact}.",
		phone:                  "telefono", sms: "SMS", web: "sito", smsTo: "al",
		notice: []string{
			"Ciao. Capisco l'italiano solo in parte, quindi potrei non capire bene quello che mi scrivi; capisco meglio l'inglese. Se stai passando un momento difficile e vuoi parlare con qualcuno adesso, qui trovi una linea di ascolto gratuita nel tuo paese:",
			"Grazie del messaggio. Leggo l'italiano solo in parte e capisco meglio l'inglese, quindi qualcosa potrebbe sfuggirmi. Se hai bisogno di parlare con qualcuno adesso, qui trovi linee di ascolto gratuite nel tuo paese:",
		},
	},
}

// englishNotice says, in English, that Haven reads the language only
// partly; {language} is its English name or "this language".
var englishNotice = []string{
	"Hi. I can read {language} only in part, so I may miss what you mean; I understand English best. If you're going through something hard and need to talk with someone now, you can find a free helpline in your country here:",
	"Thank you for writing. I read {language} only partly and understand English best, so I may not follow everything. If you need to talk with someone now, free helplines in your country are listed here:",
}

// englishOnlyLine opens an English crisis reply to a message in a
// language Haven has no vetted reply in.
const englishOnlyLine = "I read {language} only partly and can answer safely only in English, so I'm writing in English."

// intlLead introduces the international directory after a country's lines.
const intlLead = "Helplines in many countries and languages are listed here:"

func nameForNotice(code string) string {
	if n := languageName(code); n != "" {
		return n
	}
	return "this language"
}

// PartialReadingNotice is Haven's answer to a message below crisis level
// that the floor read only partly, with no model (a.PartialReading): a
// short, plain note, in the person's language where Haven has one, that
// Haven reads their language only partly and understands English best,
// and where free helplines are (the directory's international entry; dir
// nil means the embedded one). It asks no question.
func PartialReadingNotice(a Assessment, variant int, dir *Directory) string {
	if dir == nil {
		dir = defaultDirectory
	}
	intl := dir.Helplines(InternationalCode)
	if t := replyTexts[a.Language]; t != nil {
		return pick(t.notice, variant) + localResources(intl, t)
	}
	lead := strings.ReplaceAll(pick(englishNotice, variant), "{language}", nameForNotice(a.Language))
	return resourceBlock(intl, lead)
}

// crisisReplyInLanguage composes the crisis reply for a message in another
// language: translated where Haven has the language, else the English
// reply with a line that says so and the international directory. ok is
// false for English (Language "").
func crisisReplyInLanguage(in ReplyInput, dir *Directory) (Reply, bool) {
	code := in.Assessment.Language
	if code == "" {
		return Reply{}, false
	}
	if t := replyTexts[code]; t != nil {
		return localCrisisReply(in, t, dir), true
	}
	r := englishCrisisReply(in)
	line := strings.ReplaceAll(englishOnlyLine, "{language}", nameForNotice(code))
	text := line + "\n\n" + r.Text
	if in.Country != "" && dir.Has(in.Country) && !in.FollowUp {
		// The country's lines speak its language; the directory's
		// international entry finds lines in the person's.
		block := resourceBlock(dir.Helplines(InternationalCode), intlLead)
		if r.AsksQuestion {
			i := strings.LastIndex(text, "\n\n")
			text = text[:i] + "\n\n" + block + text[i:]
		} else {
			text += "\n\n" + block
		}
	}
	r.Text = text
	return r, true
}

// localCrisisReply is CrisisReply with the phrasings of t.
func localCrisisReply(in ReplyInput, t *replyText, dir *Directory) Reply {
	v := in.Variant
	if v < 0 {
		v = -v
	}
	a := in.Assessment
	known := in.Country != "" && dir.Has(in.Country)
	emergency, hasEmergency := Resource{}, false
	if known {
		emergency, hasEmergency = dir.Emergency(in.Country)
	}
	helplines := dir.Helplines(in.Country)
	fillE := func(s string) string { return strings.ReplaceAll(s, "{emergency}", emergency.Phone) }
	emergencyStep := func() string {
		if hasEmergency {
			return fillE(t.emergencyStep)
		}
		return t.emergencyStepNoNumber
	}

	var parts []string
	question, ifSafe, safety := "", false, false
	switch {
	case in.FollowUp && a.Level >= LevelIdeation:
		parts = append(parts, pick(t.ackFollowUp, v))
		if a.Level >= LevelImminent {
			parts = append(parts, emergencyStep(), t.personStep)
		}
		if len(helplines) > 0 {
			h := helplines[0]
			parts = append(parts, strings.NewReplacer("{name}", strings.ReplaceAll(h.Name, "?", ""), "{contact}", localContact(h, t)).Replace(t.followUpLine))
		}
		if a.Level >= LevelImminent {
			question, ifSafe = pick(t.askSafe, v), true
		} else {
			question, safety = pick(t.askThoughts, v), true
		}
	case a.Level >= LevelImminent:
		parts = append(parts, pick(t.ackImminent, v), emergencyStep(), t.personStep, t.meansStep)
		parts = append(parts, t.resourceLead+localResources(helplines, t), t.aiNote)
		question, ifSafe = pick(t.askSafe, v), true
	case a.Level >= LevelIdeation && a.Flags.SelfInjury && !strings.Contains(a.Reason, "wish to be dead"):
		parts = append(parts, pick(t.ackSelfInjury, v), t.selfInjuryStep, t.resourceLead+localResources(helplines, t))
		parts = append(parts, fallbackIn(t, hasEmergency, emergency), t.aiNote)
		question, ifSafe = pick(t.askSafe, v), true
	case a.Level >= LevelIdeation:
		parts = append(parts, pick(t.ackIdeation, v), t.ideationStep, t.resourceLead+localResources(helplines, t))
		parts = append(parts, fallbackIn(t, hasEmergency, emergency), t.aiNote, t.safetyPlanOffer)
		question, safety = pick(t.askThoughts, v), true
	default: // third party
		parts = append(parts, pick(t.ackThird, v), t.thirdSteps)
		if hasEmergency {
			parts = append(parts, fillE(t.thirdEmergency))
		} else {
			parts = append(parts, t.thirdEmergencyNoNumber)
		}
		parts = append(parts, t.resourceLead+localResources(helplines, t))
		question = t.askThird
	}
	if !known && !in.FollowUp {
		parts = append(parts, t.locationHint)
	}
	parts = append(parts, question)
	r := Reply{
		Text:               strings.Join(parts, "\n\n"),
		AsksQuestion:       true,
		AsksSafetyQuestion: safety,
		AsksIfSafe:         ifSafe,
	}
	if in.Public {
		r.PublicNote = t.publicNote
	}
	return r
}

func fallbackIn(t *replyText, hasEmergency bool, e Resource) string {
	if hasEmergency {
		return strings.ReplaceAll(t.fallback, "{emergency}", e.Phone)
	}
	return t.fallbackNoNumber
}

// localResources renders directory entries as a list with the contact
// labels of t (numbers as the directory has them).
func localResources(rs []Resource, t *replyText) string {
	var b strings.Builder
	for _, r := range rs {
		b.WriteString("\n- ")
		b.WriteString(strings.ReplaceAll(r.Name, "?", ""))
		b.WriteString(": ")
		b.WriteString(localContact(r, t))
	}
	return b.String()
}

// localContact renders one entry's contacts: phone, SMS (with its
// keyword), web address; the hours when the source gives them.
func localContact(r Resource, t *replyText) string {
	var c []string
	if r.Phone != "" {
		c = append(c, t.phone+" "+r.Phone)
	}
	if r.SMS != "" && r.SMS != r.Phone {
		if r.SMSKeyword != "" {
			c = append(c, t.sms+" "+r.SMSKeyword+" "+t.smsTo+" "+r.SMS)
		} else {
			c = append(c, t.sms+" "+r.SMS)
		}
	}
	if r.URL != "" {
		c = append(c, t.web+" "+strings.TrimPrefix(strings.TrimPrefix(r.URL, "https://"), "http://"))
	}
	if len(c) == 0 {
		return r.Contact
	}
	s := strings.Join(c, ", ")
	if r.Hours != "" {
		s += " (" + r.Hours + ")"
	}
	return s
}
