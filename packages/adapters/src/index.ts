// @blis/adapters: what a search or a sweep calls. Each capability lives in its own folder and
// is exported from its section below.

// --- evaluate: the blis-eval/1 protocol (src/evaluate/) ---

// --- decision-tree policies (src/decision-tree/) ---

// --- sweeps and compare (src/sweep/) ---

// --- capacity search (src/capacity/) ---
export {};
