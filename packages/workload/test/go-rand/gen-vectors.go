// gen-vectors.go prints the reference vectors that the TypeScript port of Go's math/rand (v1)
// in packages/workload/src/go-rand is tested against (vectors.json next to this file).
//
// Run it from this directory with the Go toolchain whose math/rand it should record:
//
//	/usr/lib/go-1.19/bin/go run gen-vectors.go > vectors.json
//
// Every list that follows a seed comes from its own fresh rand.New(rand.NewSource(seed)), so a
// divergence in one method cannot shift the others. Integers wider than 2^53 and all floats are
// written as strings: integers in decimal, floats as strconv.FormatFloat(x, 'g', -1, 64), the
// shortest string that parses back to the same float64.
//
// Interleaving of the Intn vectors ("intn"): 200 rounds; each round draws Intn(n) once for every
// n of intnNs, in that order, so value k belongs to n = intnNs[k % len(intnNs)]. "intnLarge" and
// "int63nExtra" interleave the same way over their own lists of n.
//
// Checksums: SHA-256 over the draws written as 8-byte little-endian words (the float64 bit pattern
// for floats, the value for integers), in draw order.
package main

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand"
	"os"
	"runtime"
	"strconv"
	"strings"
)

var seeds = []int64{0, 1, 42, -1, -42, 7919, 49, 1 << 62, -(1 << 63), 9223372036854775807, 2147483647, 2147483648, 123456789012345}

var intnNs = []int{1, 7, 1000, 128256, 2147483647}
var intnLargeNs = []int{2147483648, 1 << 40, 3000000000000001, 9007199254740991}
var int63nExtraNs = []int64{1 << 40, 1<<62 + 1, 9223372036854775807}

var fnvInputs = []string{"workload", "workload-gen", "router", "kv-offload", "instance_0", "", "héllo wörld — 日本語 🚀"}
var masterSeeds = []int64{42, -7}

func fresh(seed int64) *rand.Rand { return rand.New(rand.NewSource(seed)) }

func f64(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func floats(n int, draw func() float64) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = f64(draw())
	}
	return out
}

type seedVectors struct {
	Seed        string   `json:"seed"`
	Int63       []string `json:"int63"`
	Uint64      []string `json:"uint64"`
	Uint32      []uint32 `json:"uint32"`
	Int31       []int32  `json:"int31"`
	Float64     []string `json:"float64"`
	ExpFloat64  []string `json:"expFloat64"`
	NormFloat64 []string `json:"normFloat64"`
	Intn        []int    `json:"intn"`
	IntnLarge   []int    `json:"intnLarge"`
	Int31n      []int32  `json:"int31n"`
	Int31nSlow  []int32  `json:"int31nReject"`
	Int63n      []string `json:"int63n"`
	Int63nExtra []string `json:"int63nExtra"`
	Perm        []int    `json:"perm"`
	Shuffle     []int    `json:"shuffle"`
}

func vectorsFor(seed int64) seedVectors {
	v := seedVectors{Seed: strconv.FormatInt(seed, 10)}
	r := fresh(seed)
	for i := 0; i < 700; i++ {
		v.Int63 = append(v.Int63, strconv.FormatInt(r.Int63(), 10))
	}
	r = fresh(seed)
	for i := 0; i < 50; i++ {
		v.Uint64 = append(v.Uint64, strconv.FormatUint(r.Uint64(), 10))
	}
	r = fresh(seed)
	for i := 0; i < 50; i++ {
		v.Uint32 = append(v.Uint32, r.Uint32())
	}
	r = fresh(seed)
	for i := 0; i < 50; i++ {
		v.Int31 = append(v.Int31, r.Int31())
	}
	v.Float64 = floats(200, fresh(seed).Float64)
	v.ExpFloat64 = floats(200, fresh(seed).ExpFloat64)
	v.NormFloat64 = floats(200, fresh(seed).NormFloat64)
	r = fresh(seed)
	for round := 0; round < 200; round++ {
		for _, n := range intnNs {
			v.Intn = append(v.Intn, r.Intn(n))
		}
	}
	r = fresh(seed)
	for round := 0; round < 25; round++ {
		for _, n := range intnLargeNs {
			v.IntnLarge = append(v.IntnLarge, r.Intn(n))
		}
	}
	r = fresh(seed)
	for i := 0; i < 200; i++ {
		v.Int31n = append(v.Int31n, r.Int31n(1<<20))
	}
	r = fresh(seed)
	for i := 0; i < 100; i++ {
		v.Int31nSlow = append(v.Int31nSlow, r.Int31n(1<<30+1))
	}
	r = fresh(seed)
	for i := 0; i < 200; i++ {
		v.Int63n = append(v.Int63n, strconv.FormatInt(r.Int63n(1e15), 10))
	}
	r = fresh(seed)
	for round := 0; round < 30; round++ {
		for _, n := range int63nExtraNs {
			v.Int63nExtra = append(v.Int63nExtra, strconv.FormatInt(r.Int63n(n), 10))
		}
	}
	v.Perm = fresh(seed).Perm(60)
	v.Shuffle = make([]int, 100)
	for i := range v.Shuffle {
		v.Shuffle[i] = i
	}
	fresh(seed).Shuffle(len(v.Shuffle), func(i, j int) { v.Shuffle[i], v.Shuffle[j] = v.Shuffle[j], v.Shuffle[i] })
	return v
}

func fnv1a64(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

type fnvVector struct {
	Input string `json:"input"`
	Hash  string `json:"hash"`
}

// subsystemVector follows BLIS sim/rng.go: "workload" keeps the master seed, every other
// subsystem uses masterSeed XOR fnv1a64(name) read as an int64.
type subsystemVector struct {
	Master    string   `json:"master"`
	Subsystem string   `json:"subsystem"`
	Derived   string   `json:"derived"`
	Int63     []string `json:"int63"`
}

type checksum struct {
	Method string `json:"method"`
	Seed   string `json:"seed"`
	Draws  int    `json:"draws"`
	SHA256 string `json:"sha256"`
}

func sum(method string, seed int64, draws int) checksum {
	r := fresh(seed)
	h := sha256.New()
	var word [8]byte
	for i := 0; i < draws; i++ {
		var bits uint64
		switch method {
		case "expFloat64":
			bits = math.Float64bits(r.ExpFloat64())
		case "normFloat64":
			bits = math.Float64bits(r.NormFloat64())
		case "float64":
			bits = math.Float64bits(r.Float64())
		case "intn128256":
			bits = uint64(r.Intn(128256))
		}
		binary.LittleEndian.PutUint64(word[:], bits)
		h.Write(word[:])
	}
	return checksum{method, strconv.FormatInt(seed, 10), draws, fmt.Sprintf("%x", h.Sum(nil))}
}

type logVector struct {
	X   string `json:"x"`
	Log string `json:"log"`
}

func logVectors() []logVector {
	xs := []float64{1, 0.5, 0.25, 0.75, math.Sqrt2 / 2, math.Sqrt2 / 4, math.Sqrt2 / 2 * math.Pow(2, -30), math.Sqrt2 / 2 * (1 << 32), math.Nextafter(math.Sqrt2/2, 1), math.Nextafter(math.Sqrt2/2, 0), math.Nextafter(1, 0), math.Pow(2, -63), 1e-300, 0.1, 0.9, 2, 10, 1e300}
	r := fresh(7)
	for i := 0; i < 2000; i++ {
		xs = append(xs, r.Float64())
	}
	out := make([]logVector, len(xs))
	for i, x := range xs {
		out[i] = logVector{f64(x), f64(math.Log(x))}
	}
	return out
}

// goTable reads one table literal ("var <name> = [N]T{...}") from this toolchain's own
// math/rand sources, so the port's copied tables are checked against Go's, not against a copy.
func goTable(file, name string) []string {
	src, err := os.ReadFile(runtime.GOROOT() + "/src/math/rand/" + file)
	if err != nil {
		panic(err)
	}
	text := string(src)
	start := strings.Index(text, "var "+name+" = [")
	if start < 0 {
		start = strings.Index(text, "\t"+name+" [")
	}
	if start < 0 {
		panic("no table " + name)
	}
	open := start + strings.Index(text[start:], "{")
	end := open + strings.Index(text[open:], "}")
	var out []string
	for _, f := range strings.Split(text[open+1:end], ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// tables records the ziggurat tables of exp.go and normal.go (float32 tables as bit patterns,
// parsed the way the compiler converts a constant: decimal straight to the nearest float32) and
// rng.go's rngCooked, so a test can check the port's copies value for value.
func tables() map[string]any {
	out := map[string]any{}
	for _, t := range []struct{ file, name string }{{"exp.go", "ke"}, {"normal.go", "kn"}} {
		var vals []uint32
		for _, lit := range goTable(t.file, t.name) {
			v, err := strconv.ParseUint(lit, 0, 32)
			if err != nil {
				panic(err)
			}
			vals = append(vals, uint32(v))
		}
		out[t.name] = vals
	}
	for _, t := range []struct{ file, name string }{{"exp.go", "we"}, {"exp.go", "fe"}, {"normal.go", "wn"}, {"normal.go", "fn"}} {
		var bits []uint32
		for _, lit := range goTable(t.file, t.name) {
			v, err := strconv.ParseFloat(lit, 32)
			if err != nil {
				panic(err)
			}
			bits = append(bits, math.Float32bits(float32(v)))
		}
		out[t.name+"Bits"] = bits
	}
	var cooked []string
	for _, lit := range goTable("rng.go", "rngCooked") {
		v, err := strconv.ParseInt(lit, 10, 64)
		if err != nil {
			panic(err)
		}
		cooked = append(cooked, strconv.FormatInt(v, 10))
	}
	out["rngCooked"] = cooked
	out["oneOverRn"] = f64(1.0 / rn)
	return out
}

// wedges records the float32 left side of the ziggurat wedge tests, f[i] + float32(u)*(f[i-1]-f[i]),
// as exp.go and normal.go compute it, for two draws u per layer: float32 rounding after each
// operation is what the port must reproduce, and long draw checksums almost never exercise it.
type wedge struct {
	I int    `json:"i"`
	U string `json:"u"`
	W string `json:"w"`
}

func wedges() map[string][]wedge {
	out := map[string][]wedge{}
	r := fresh(99)
	for _, t := range []struct{ key, file, name string }{{"exp", "exp.go", "fe"}, {"norm", "normal.go", "fn"}} {
		var f []float32
		for _, lit := range goTable(t.file, t.name) {
			v, err := strconv.ParseFloat(lit, 32)
			if err != nil {
				panic(err)
			}
			f = append(f, float32(v))
		}
		for i := 1; i < len(f); i++ {
			for k := 0; k < 2; k++ {
				u := r.Float64()
				w := f[i] + float32(u)*(f[i-1]-f[i])
				out[t.key] = append(out[t.key], wedge{i, f64(u), f64(float64(w))})
			}
		}
	}
	return out
}

const rn = 3.442619855899

func main() {
	out := map[string]any{
		"generator":   "packages/workload/test/go-rand/gen-vectors.go",
		"go":          runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH,
		"intnNs":      intnNs,
		"intnLargeNs": intnLargeNs,
		"int63nExtraNs": func() []string {
			s := []string{}
			for _, n := range int63nExtraNs {
				s = append(s, strconv.FormatInt(n, 10))
			}
			return s
		}(),
	}
	var perSeed []seedVectors
	for _, s := range seeds {
		perSeed = append(perSeed, vectorsFor(s))
	}
	out["seeds"] = perSeed
	var fv []fnvVector
	for _, s := range fnvInputs {
		fv = append(fv, fnvVector{s, strconv.FormatUint(fnv1a64(s), 10)})
	}
	out["fnv1a64"] = fv
	var sv []subsystemVector
	for _, m := range masterSeeds {
		for _, name := range fnvInputs {
			derived := m
			if name != "workload" {
				derived = m ^ int64(fnv1a64(name))
			}
			r := fresh(derived)
			v := subsystemVector{Master: strconv.FormatInt(m, 10), Subsystem: name, Derived: strconv.FormatInt(derived, 10)}
			for i := 0; i < 5; i++ {
				v.Int63 = append(v.Int63, strconv.FormatInt(r.Int63(), 10))
			}
			sv = append(sv, v)
		}
	}
	out["subsystems"] = sv
	out["checksums"] = []checksum{
		sum("expFloat64", 42, 100000),
		sum("normFloat64", 42, 100000),
		sum("float64", 42, 100000),
		sum("intn128256", 42, 100000),
		sum("expFloat64", 1, 2000000),
		sum("normFloat64", -7, 2000000),
	}
	out["log"] = logVectors()
	out["tables"] = tables()
	out["wedges"] = wedges()
	writeJSON(out)
}

// writeJSON puts each top-level key and each per-seed object on its own line: small diffs, no
// 40,000-line file.
func writeJSON(out map[string]any) {
	keys := []string{"generator", "go", "intnNs", "intnLargeNs", "int63nExtraNs", "seeds", "fnv1a64", "subsystems", "checksums", "log", "tables", "wedges"}
	var b strings.Builder
	b.WriteString("{\n")
	for i, k := range keys {
		b.WriteString(fmt.Sprintf("%q: ", k))
		switch list := out[k].(type) {
		case []seedVectors:
			b.WriteString("[\n")
			for j, v := range list {
				b.Write(mustJSON(v))
				if j < len(list)-1 {
					b.WriteString(",")
				}
				b.WriteString("\n")
			}
			b.WriteString("]")
		default:
			b.Write(mustJSON(list))
		}
		if i < len(keys)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	os.Stdout.WriteString(b.String())
}

func mustJSON(v any) []byte {
	j, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return j
}
