"""A GEPA adapter that scores BLIS policy texts with the BLIS simulator, through `blis evaluate`.

GEPA's candidate is a dict of component names to texts; here each text is one section of a BLIS
policy bundle (`routing`, `admission`, `priority`, `scheduler`, `autoscaler`) or the whole bundle
(`policy`), or a decision tree (see docs/decision-trees.md). A data instance is one `blis-eval/1`
scenario (a workload, seeds, SLOs); `scenarios.json` holds a train and a validation set.

    adapter = BlisTsAdapter()
    result = gepa.optimize(seed_candidate=SEED_CANDIDATE, trainset=..., valset=..., adapter=adapter,
                           reflection_lm="openai/gpt-4o-mini", max_metric_calls=60)

`evaluate` sends a minibatch as ONE request (candidate kind `components`, scenarios = the batch);
the score of instance i is the simulator's score of scenario i, in [0, 1) (higher is better), its
objective scores go to `objective_scores` (for `frontier_type="objective"` or `"hybrid"`), and with
`capture_traces` its feedback text to the trajectory. A candidate the simulator refuses scores 0.0
on every instance, with the reason in every trajectory: GEPA's reflection then reads why. Only a
failure of the tool itself (no `node`, a request the CLI refuses, output that is not a response)
raises `BlisEvaluateError`.

Standard library only. The adapter keeps `blis evaluate --serve` children (one per concurrent
`batch_evaluate` worker, started when first needed) and sends every request to one of them, so a
search pays Node's start-up once, not once per metric call; a child that crashed or did not
answer within `timeout_s` is killed and replaced. `persistent=False` (or
`$BLIS_EVAL_MODE=oneshot`) runs one process per call instead. The CLI is the repository's built
bundle (`packages/cli/dist/cli.cjs`) when it exists and is newer than every source file, else
`packages/cli/bin/blis.js` run with `node` (the sources through tsx), or the command line in
`$BLIS_CLI` (e.g. `npx blis`).
"""

from __future__ import annotations

import copy
import json
import os
import queue
import random
import shlex
import signal
import subprocess
import threading
import weakref
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

HERE = Path(__file__).resolve().parent
SCENARIOS_FILE = HERE / "scenarios.json"

# A deliberately poor start: all the routing weight on prefix affinity, which sends every request
# of a shared system prompt to the same replica. GEPA (or the toy loop of the tests) improves it.
SEED_CANDIDATE: Dict[str, str] = {
    "routing": "policy: weighted\nscorers:\n  - {name: prefix-affinity, weight: 1}\n",
    "admission": "policy: always-admit\n",
}

try:  # GEPA's own result type when it is installed
    from gepa.core.adapter import EvaluationBatch  # type: ignore
except ImportError:  # pragma: no cover - the branch taken depends on the environment

    @dataclass
    class EvaluationBatch:  # type: ignore[no-redef]
        """Same fields and defaults as `gepa.core.adapter.EvaluationBatch`."""

        outputs: List[Any]
        scores: List[float]
        trajectories: Optional[List[Any]] = None
        objective_scores: Optional[List[Dict[str, float]]] = None
        num_metric_calls: Optional[int] = None


class BlisEvaluateError(RuntimeError):
    """`blis evaluate` could not answer at all (not a judgement on the candidate)."""


def load_scenarios() -> Dict[str, Any]:
    return json.loads(SCENARIOS_FILE.read_text(encoding="utf-8"))


def cli_command(override: Optional[str] = None) -> List[str]:
    """`override`, else `$BLIS_CLI`, split like a shell would; else the repository's current bundle, else its bin."""
    text = (override if override is not None else os.environ.get("BLIS_CLI", "")).strip()
    if text:
        return shlex.split(text)
    bundle = current_bundle(HERE.parents[1])
    if bundle is not None:
        return ["node", str(bundle)]
    return ["node", str(HERE.parents[1] / "packages" / "cli" / "bin" / "blis.js")]


_bundles: Dict[Path, Optional[Path]] = {}


def current_bundle(repo: Path) -> Optional[Path]:
    """`packages/cli/dist/cli.cjs` when it is newer than every file of `packages/*/src`, else None.

    The bundle starts in a fraction of the time tsx takes to run the sources; a stale one would
    evaluate yesterday's simulator, so any newer source file sends the adapter to the sources.
    """
    if repo not in _bundles:
        bundle = repo / "packages" / "cli" / "dist" / "cli.cjs"
        try:
            built = bundle.stat().st_mtime
            newest = max((p.stat().st_mtime for p in (repo / "packages").glob("*/src/**/*") if p.is_file()), default=0.0)
            _bundles[repo] = bundle if newest <= built else None
        except OSError:
            _bundles[repo] = None
    return _bundles[repo]


def cli_budget_ms(timeout_s: float) -> int:
    """The CLI's `max_wall_ms` within a `timeout_s` wait: a tenth less, and at least a second less
    (never more than half), so that its `timeout` answer arrives first on a loaded machine too."""
    reserve = min(max(0.1 * timeout_s, 1.0), 0.5 * timeout_s)
    return max(1, round((timeout_s - reserve) * 1000))


def persistent_by_default() -> bool:
    """False when `$BLIS_EVAL_MODE` is `oneshot`; `serve` or unset keep the CLI running."""
    mode = os.environ.get("BLIS_EVAL_MODE", "").strip().lower() or "serve"
    if mode not in ("serve", "oneshot"):
        raise ValueError(f"BLIS_EVAL_MODE must be serve or oneshot, not {mode!r}")
    return mode == "serve"


def describe_workload(scenario: Mapping[str, Any]) -> str:
    """A one-line description of a scenario's workload, for the reflection dataset."""
    w = scenario.get("workload") or {}
    seeds = scenario.get("seeds", [42])
    if w.get("kind") == "spec" and isinstance(w.get("spec"), Mapping):
        spec = w["spec"]
        clients = ", ".join(
            f"{c.get('id')} ({c.get('arrival', {}).get('process', 'poisson')} arrivals, "
            f"prompt ~{c.get('input_distribution', {}).get('params', {}).get('mean', '?')} tokens, "
            f"prefix group {c.get('prefix_group', 'none')})"
            for c in spec.get("clients", [])
        )
        text = f"{spec.get('num_requests', '?')} requests at {spec.get('aggregate_rate', '?')} req/s from {clients}"
    elif w.get("kind") == "synthetic":
        text = f"{w.get('numRequests', 100)} synthetic requests at {w.get('rate', 1)} req/s ({w.get('arrivalProcess', 'poisson')})"
    else:
        text = f"{w.get('kind', 'unknown')} workload {w.get('path', '')}".strip()
    slo = scenario.get("slo") or {}
    targets = ", ".join(f"{k.split('_')[0].upper()} SLO {v / 1000:g} ms" for k, v in slo.items())
    return f"{text}; seeds {seeds}" + (f"; {targets}" if targets else "")


# Lines of the simulator's feedback that speak to each component (the trace summary names them).
_FOCUS = {
    "routing": ("ROUTING", "Routing", "routed", "regret", "prefix", "per instance", "load"),
    "admission": ("ADMISSION", "admission", "rejected", "shed"),
    "priority": ("PRIORITY", "priority", "inversion"),
    "scheduler": ("SCHEDUL", "scheduler", "hol_blocking", "HOL", "preempt"),
    "autoscaler": ("AUTOSCAL", "Autoscaling", "replica", "scale"),
}

_KEY_METRICS = (
    ("p99_ttft_us", "p99 TTFT (ms)", 1e-3),
    ("p99_e2e_us", "p99 E2E (ms)", 1e-3),
    ("throughput_rps", "throughput (req/s)", 1.0),
    ("slo_attainment", "SLO attainment", 1.0),
    ("completion_rate", "completion rate", 1.0),
    ("cache_hit_rate", "prefix-cache hit rate", 1.0),
    ("preemptions", "preemptions", 1.0),
    ("routing_rejections", "rejected", 1.0),
)


class BlisTsAdapter:
    """GEPA adapter (structural: GEPA's protocol is duck-typed) over `blis evaluate`."""

    # GEPA reads this attribute directly; None selects its reflection-LM proposer.
    propose_new_texts = None

    def __init__(
        self,
        *,
        base_config: Optional[Dict[str, Any]] = None,
        objectives: Optional[Dict[str, Any]] = None,
        cli: Optional[str] = None,
        trace: str = "summary",
        timeout_s: float = 300.0,
        max_workers: int = 4,
        max_records: int = 8,
        seed: int = 0,
        persistent: Optional[bool] = None,
    ) -> None:
        doc = load_scenarios()
        self.base_config = copy.deepcopy(base_config if base_config is not None else doc.get("base_config", {}))
        self.objectives = copy.deepcopy(objectives if objectives is not None else doc["objectives"])
        self.cli = cli
        self.trace = trace
        self.timeout_s = timeout_s
        self.max_workers = max_workers
        self.max_records = max_records
        self.seed = seed
        self.persistent = persistent_by_default() if persistent is None else persistent
        # Idle `--serve` children, and how many exist: at most one per concurrent evaluation.
        self._idle: "queue.LifoQueue[BlisServe]" = queue.LifoQueue()
        self._children: List["BlisServe"] = []
        self._children_lock = threading.Lock()
        self._finalizer = weakref.finalize(self, _close_all, self._children)

    # -- GEPA's protocol ------------------------------------------------------------------------

    def evaluate(self, batch: List[Mapping[str, Any]], candidate: Mapping[str, str], capture_traces: bool = False) -> EvaluationBatch:
        request = self.build_request(batch, candidate)
        response = self._run(request)
        per = response.get("per_scenario") or []
        if len(per) != len(batch):
            raise BlisEvaluateError(f"blis evaluate answered {len(per)} scenario(s) for a batch of {len(batch)}")
        ok = response.get("status") == "ok"
        error = None if ok else _describe_error(response)
        outputs = [dict(s.get("metrics") or {}) if ok else {"status": response.get("status"), "error": error} for s in per]
        scores = [float(s.get("score", 0.0)) if ok else 0.0 for s in per]
        objective_scores = [dict(s.get("objective_scores") or {}) for s in per]
        trajectories = None
        if capture_traces:
            trajectories = [
                {
                    "scenario": s.get("id"),
                    "workload": describe_workload(inst),
                    "score": scores[i],
                    "metrics": outputs[i] if ok else {},
                    "feedback": s.get("feedback", ""),
                    "trace_summary": s.get("trace_summary") or {},
                    "error": error,
                }
                for i, (s, inst) in enumerate(zip(per, batch))
            ]
        return EvaluationBatch(outputs=outputs, scores=scores, trajectories=trajectories, objective_scores=objective_scores)

    def batch_evaluate(self, items: Sequence[Tuple[Mapping[str, str], List[Mapping[str, Any]]]], *, capture_traces: bool = True) -> List[EvaluationBatch]:
        """One `blis evaluate` process per (candidate, batch) pair, `max_workers` at a time, in order."""
        if not items:
            return []
        # Imported here: it brings `logging` along, some 3 ms of every import of this module,
        # and a search that never batches never needs it.
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=max(1, min(self.max_workers, len(items)))) as pool:
            futures = [pool.submit(self.evaluate, batch, candidate, capture_traces) for candidate, batch in items]
            return [f.result() for f in futures]

    def make_reflective_dataset(
        self, candidate: Mapping[str, str], eval_batch: EvaluationBatch, components_to_update: Sequence[str]
    ) -> Dict[str, List[Dict[str, Any]]]:
        """Per component, up to `max_records` records (seeded sub-sample, lowest scores kept first)."""
        trajectories = eval_batch.trajectories or []
        out: Dict[str, List[Dict[str, Any]]] = {}
        for component in components_to_update:
            rng = random.Random(f"{self.seed}:{component}")
            order = list(range(len(trajectories)))
            rng.shuffle(order)
            # The weakest scenarios teach the most; the shuffle breaks ties reproducibly.
            order.sort(key=lambda i: eval_batch.scores[i])
            chosen = sorted(order[: self.max_records])
            out[component] = [self._record(component, candidate, trajectories[i]) for i in chosen]
        return out

    # -- helpers --------------------------------------------------------------------------------

    def build_request(self, batch: Sequence[Mapping[str, Any]], candidate: Mapping[str, str]) -> Dict[str, Any]:
        # Copies: GEPA's batch and candidate must come back untouched.
        return {
            "protocol": "blis-eval/1",
            "candidate": {"kind": "components", "components": {k: str(v) for k, v in candidate.items()}},
            "base_config": copy.deepcopy(self.base_config),
            "scenarios": copy.deepcopy(list(batch)),
            "objectives": copy.deepcopy(self.objectives),
            "trace": self.trace,
            "max_wall_ms": cli_budget_ms(self.timeout_s),
        }

    def _record(self, component: str, candidate: Mapping[str, str], t: Mapping[str, Any]) -> Dict[str, Any]:
        if t.get("error"):
            feedback = f"The candidate was not simulated. {t['error']}\nFix the `{component}` text so that BLIS accepts it."
            generated: Dict[str, Any] = {"status": "rejected"}
        else:
            m = t.get("metrics") or {}
            generated = {label: round(m[key] * scale, 3) for key, label, scale in _KEY_METRICS if key in m}
            generated["score"] = round(float(t.get("score", 0.0)), 4)
            feedback = str(t.get("feedback", ""))
            focus = [ln.strip() for ln in feedback.splitlines() if any(k in ln for k in _FOCUS.get(component, ()))]
            if focus:
                feedback += f"\nMost relevant to `{component}`:\n" + "\n".join(focus[:8])
        return {
            "Inputs": {"scenario": t.get("scenario"), "workload": t.get("workload"), "current_text": candidate.get(component, "")},
            "Generated Outputs": generated,
            "Feedback": feedback,
        }

    def close(self) -> None:
        """Ends the adapter's `--serve` children (also done when the adapter is collected)."""
        self._finalizer()

    def _ask(self, payload: str) -> Tuple[int, str, str]:
        """One request through an idle `--serve` child, started when none is idle."""
        command = tuple(cli_command(self.cli))
        try:
            child = self._idle.get_nowait()
        except queue.Empty:
            child = BlisServe(command=command)
            with self._children_lock:
                self._children.append(child)
        try:
            if child.command != command:  # $BLIS_CLI changed: a child for the new command
                child.close()
                child = BlisServe(command=command)
                with self._children_lock:
                    self._children.append(child)
            return child.ask(payload, self.timeout_s)
        finally:
            self._idle.put(child)

    def _run(self, request: Dict[str, Any]) -> Dict[str, Any]:
        payload = json.dumps(request)
        try:
            if self.persistent:
                code, stdout, stderr = self._ask(payload)
            else:
                code, stdout, stderr = run_cli(cli_command(self.cli), payload, self.timeout_s)
        except subprocess.TimeoutExpired:
            # The CLI's own budget (max_wall_ms) should have answered first: treat as the candidate's.
            msg = f"blis evaluate did not answer within {self.timeout_s:g} s"
            return _failed_response(request, "timeout", msg)
        except OSError as e:
            raise BlisEvaluateError(f"cannot start {' '.join(cli_command(self.cli))}: {e}") from e
        lines = stdout.strip().splitlines()
        try:
            response = json.loads(lines[-1]) if lines else None
        except ValueError:
            response = None
        if code != 0 or not isinstance(response, dict) or "status" not in response:
            raise BlisEvaluateError(f"blis evaluate exited {code} without a response; stderr: {stderr[-2000:]}")
        return response


def _failed_response(request: Mapping[str, Any], status: str, message: str) -> Dict[str, Any]:
    return {
        "status": status,
        "error": {"kind": status, "message": message, "issues": []},
        "per_scenario": [{"id": s["id"], "score": 0.0, "objective_scores": {}, "metrics": {}, "feedback": message, "trace_summary": {}} for s in request["scenarios"]],
    }


def _describe_error(response: Mapping[str, Any]) -> str:
    error = response.get("error") or {}
    lines = [f"{response.get('status')}: {error.get('message', '')}"]
    for issue in error.get("issues") or []:
        lines.append(f"- {issue.get('where')}: expected {issue.get('expected')}, found {issue.get('found')}")
    return "\n".join(lines)


def run_cli(command: List[str], payload: str, timeout_s: float, args: Sequence[str] = ("evaluate",)) -> Tuple[int, str, str]:
    """Runs the CLI with `payload` on stdin; on timeout kills its process group and re-raises."""
    # A new session: the launcher runs the CLI in a child node process, which must die with it.
    proc = subprocess.Popen(
        [*command, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8", start_new_session=True
    )
    try:
        stdout, stderr = proc.communicate(payload, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        proc.communicate()
        raise
    return proc.returncode, stdout, stderr


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (AttributeError, ProcessLookupError, PermissionError):
        proc.kill()


def wait_or_kill(proc: subprocess.Popen, timeout_s: float) -> bool:
    """Waits for `proc` to end; past `timeout_s` kills its process group. False when it was killed.

    `Popen.wait(timeout)` polls with sleeps that double up to 50 ms, so it notices a child that
    ended after 10 ms some 5 to 20 ms late, on every close. A blocking wait notices at once, and
    a timer thread kills a child that does not end. The wait leaves the ended child unreaped
    (`WNOWAIT`) until the timer is stopped, so the timer can never signal a reused process id.
    """
    killed = threading.Event()

    def kill() -> None:
        killed.set()
        _kill_group(proc)

    timer = threading.Timer(timeout_s, kill)
    timer.daemon = True
    timer.start()
    try:
        waitid = getattr(os, "waitid", None)
        if waitid is not None:
            try:
                waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOWAIT)
            except ChildProcessError:
                pass  # already reaped: proc.wait() below knows its code
        else:  # pragma: no cover - Windows: the kill goes through the process handle, never a reused id
            proc.wait()
    finally:
        timer.cancel()
        timer.join()
    proc.wait()
    return not killed.is_set()


class BlisServe:
    """`blis evaluate --serve`: one Node process for many requests (a search loop's fast path).

    Started on the first request, and again after it died or was killed. `ask(payload,
    timeout_s)` returns what `run_cli` returns (exit code, stdout, stderr): code 0 with the
    response line, or the child's exit code and its stderr when it ended without one; past
    `timeout_s` the child is killed and `subprocess.TimeoutExpired` raised. `evaluate(request)`
    returns the response as a dict. Use it as a context manager so that the process ends with
    the loop. Thread-safe (one request at a time).
    """

    def __init__(self, cli: Optional[str] = None, *, command: Optional[Tuple[str, ...]] = None) -> None:
        self.command = command if command is not None else tuple(cli_command(cli))
        self._proc: Optional[subprocess.Popen] = None
        self._lines: "queue.Queue[Optional[str]]" = queue.Queue()
        self._stderr: deque = deque(maxlen=400)
        self._stderr_done = threading.Event()
        self._lock = threading.Lock()

    def evaluate(self, request: Mapping[str, Any], timeout_s: float = 3600.0) -> Dict[str, Any]:
        code, stdout, stderr = self.ask(json.dumps(request), timeout_s)
        if code != 0:
            raise BlisEvaluateError(f"blis evaluate --serve ended (exit {code}); stderr: {stderr[-2000:]}")
        return json.loads(stdout)

    def ask(self, payload: str, timeout_s: float) -> Tuple[int, str, str]:
        with self._lock:
            if self._proc is None or self._proc.poll() is not None:
                self._start()
            proc = self._proc
            assert proc is not None and proc.stdin is not None
            # What it writes on stderr from now on goes with this request.
            self._stderr.clear()
            try:
                proc.stdin.write(payload + "\n")
                proc.stdin.flush()
            except OSError:
                pass  # it died: the response queue says how
            try:
                line = self._lines.get(timeout=timeout_s)
            except queue.Empty:
                self._stop(kill=True)
                raise subprocess.TimeoutExpired(list(self.command), timeout_s)
            if line is None:
                code = proc.wait()
                self._stderr_done.wait(5)
                self._stop(kill=True)
                return code if code != 0 else 1, "", "".join(list(self._stderr))
            return 0, line, "".join(list(self._stderr))

    def _start(self) -> None:
        self._lines = queue.Queue()
        self._stderr = deque(maxlen=400)
        self._stderr_done = threading.Event()
        # A new session: in a checkout the launcher runs the CLI in a child node process, which must die with it.
        proc = subprocess.Popen(
            [*self.command, "evaluate", "--serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            bufsize=1,
            start_new_session=True,
        )
        self._proc = proc
        threading.Thread(target=_pump_lines, args=(proc.stdout, self._lines), daemon=True).start()
        threading.Thread(target=_pump_stderr, args=(proc.stderr, self._stderr, self._stderr_done), daemon=True).start()

    # How long a child may take to end after its input closed before it is killed.
    STOP_GRACE_S = 10.0

    def _stop(self, kill: bool) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if not kill and proc.stdin is not None:
            try:
                proc.stdin.close()  # --serve ends at the end of its input
            except OSError:
                pass
            wait_or_kill(proc, self.STOP_GRACE_S)
            return
        _kill_group(proc)
        proc.wait()
        if proc.stdin is not None:
            try:
                proc.stdin.close()
            except OSError:
                pass

    def close(self) -> None:
        with self._lock:
            self._stop(kill=False)

    def __enter__(self) -> "BlisServe":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _pump_lines(stream, lines: "queue.Queue[Optional[str]]") -> None:
    try:
        for line in stream:
            lines.put(line)
    finally:
        lines.put(None)
        stream.close()


def _pump_stderr(stream, tail: deque, done: threading.Event) -> None:
    try:
        for line in stream:
            tail.append(line)
    finally:
        done.set()
        stream.close()


def _close_all(children: List[BlisServe]) -> None:
    for child in children:
        child.close()
