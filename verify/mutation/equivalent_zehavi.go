package mutation

// Zehavi's k-exclusion: the survivors shown equivalent, for both of its
// variants (k-exclusion and mutex). Its other survivors are not reviewed
// yet: the report lists them as unclassified.

// zehaviPrecede is why clearing precede at line 9 is redundant.
const zehaviPrecede = "redundant write: precede is a Step local array, all false at the start of every acquire in both " +
	"backends, and line 9 runs before anything sets it, so clearing it (fully, partly or not at all) changes nothing"

var zehaviEquivalences = map[string]string{
	"Acquire/swap@2,3":            LocalCommute,
	"Acquire/swap@9,9":            LocalCommute,
	"Acquire/swap@10,10":          LocalCommute,
	"Acquire/swap@11a.i,11a.i":    LocalCommute,
	"Acquire/swap@11a.ii,11a.ii":  LocalCommute,
	"Acquire/swap@11b.i,11b.i":    LocalCommute,
	"Acquire/delete@3":            stepZero("mine"),
	"Acquire/delete@9#2":          stepZero("cnt"),
	"Acquire/delete@9":            zehaviPrecede,
	"Acquire/delete@9#3":          zehaviPrecede,
	"Acquire/off-by-one-from+1@9": zehaviPrecede,
	"Acquire/off-by-one-to-1@9":   zehaviPrecede,
}

func init() {
	for _, variant := range []string{"zehavi[kexclusion]/", "zehavi[mutex]/"} {
		for id, why := range zehaviEquivalences {
			Equivalences[variant+id] = why
		}
	}
}
