"""OpenEvolve evaluator for BLIS routing policies, through `blis evaluate`.

OpenEvolve loads this file by path (`openevolve-run.py initial_program.ts evaluator.py --config
config.yaml`) and calls `evaluate_stage1`, then `evaluate_stage2` and `evaluate_stage3` for the
candidates that pass `evaluator.cascade_thresholds` (or `evaluate` alone when
`cascade_evaluation` is false). Each call writes one `blis-eval/1` request for the candidate
program and one set of scenarios (`scenarios.json`, beside this file) to `blis evaluate` and turns
the response into OpenEvolve metrics:

- `combined_score`: the simulator's score in [0, 1] (OpenEvolve's fitness, higher is better);
- every raw figure of the response (`p99_ttft_us`, `throughput_rps`, ... `cache_hit_rate`) and its
  features (`mean_replicas`, `disagg_fraction`), which MAP-Elites may bin but which are never
  folded into `combined_score`;
- `stageN_score`: the stage's own score, kept apart because OpenEvolve's cascade merge lets a
  later stage's `combined_score` replace an earlier one.

A candidate that does not compile, throws, times out or makes the CLI print something that is not
a response is not an exception: the result is `{"combined_score": 0.0, "error": 0.0}` with the
reason in the artifacts. Raising would make OpenEvolve retry a deterministic failure three times.

Standard library only. Each evaluator process (OpenEvolve runs evaluations in a process pool)
keeps one `blis evaluate --serve` child, started on its first evaluation and reused for every
later one, so a search pays Node's start-up once per process, not once per call; it is started
again after a crash or a timeout (a candidate stuck in a loop is answered `timeout` by the CLI
itself at `max_wall_ms`; past the subprocess timeout the child is killed and replaced).
`$BLIS_EVAL_MODE=oneshot` runs one process per call instead. The CLI is the repository's built
bundle (`packages/cli/dist/cli.cjs`) when it exists and is newer than every source file, else
`packages/cli/bin/blis.js` (which runs the sources through tsx), or the command line in
`$BLIS_CLI` (e.g. `npx blis`). The subprocess timeout is 0.9 x the `evaluator.timeout` of
`config.yaml` (or `$BLIS_EVAL_TIMEOUT_S`), so that a slow candidate is answered before
OpenEvolve's own timeout fires.
"""

from __future__ import annotations

import atexit
import json
import math
import os
import queue
import re
import shlex
import signal
import subprocess
import threading
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple, Union

HERE = Path(__file__).resolve().parent
SCENARIOS_FILE = HERE / "scenarios.json"
CONFIG_FILE = HERE / "config.yaml"
DEFAULT_TIMEOUT_S = 300.0
STDERR_TAIL_CHARS = 4000


@dataclass
class EvaluationResult:
    """Stand-in for `openevolve.evaluation_result.EvaluationResult` when OpenEvolve is absent."""

    metrics: Dict[str, float]
    artifacts: Dict[str, Union[str, bytes]] = field(default_factory=dict)

    def to_dict(self) -> Dict[str, float]:
        return dict(self.metrics)

    def has_artifacts(self) -> bool:
        return bool(self.artifacts)


# ---------------------------------------------------------------------------------------------
# OpenEvolve's entry points


def evaluate(program_path: str):
    """The whole scenario set (stage 2's), for runs without cascade evaluation."""
    return _public(evaluate_with_artifacts(program_path, "full"))


def evaluate_stage1(program_path: str):
    """Cheap filter: one short scenario, one seed; an invariant violation scores 0."""
    return _public(evaluate_with_artifacts(program_path, "stage1"))


def evaluate_stage2(program_path: str):
    """The full scenario set."""
    return _public(evaluate_with_artifacts(program_path, "stage2"))


def evaluate_stage3(program_path: str):
    """Robustness: the full set again plus bursty arrivals on seeds stage 2 did not use."""
    return _public(evaluate_with_artifacts(program_path, "stage3"))


def _public(result: EvaluationResult):
    # OpenEvolve's own class when it is installed (it keeps the artifacts), else plain metrics.
    try:
        from openevolve.evaluation_result import EvaluationResult as OpenEvolveResult
    except ImportError:
        return dict(result.metrics)
    return OpenEvolveResult(metrics=dict(result.metrics), artifacts=dict(result.artifacts))


# ---------------------------------------------------------------------------------------------
# The work, with artifacts, whichever framework (or none) calls it

STAGES = ("stage1", "stage2", "stage3", "full")


def evaluate_with_artifacts(program_path: str, stage: str = "full") -> EvaluationResult:
    """Evaluates the program at `program_path` on `stage`'s scenarios; never raises for the candidate."""
    if stage not in STAGES:
        raise ValueError(f"stage must be one of {STAGES}, not {stage!r}")
    try:
        text = Path(program_path).read_text(encoding="utf-8")
    except OSError as e:
        return _failure(stage, "read", f"cannot read the candidate {program_path}: {e}", "")
    if text.strip() == "":
        return _failure(stage, "read", f"the candidate {program_path} is empty", "")
    request = build_request(candidate_for(program_path, text), stage)
    timeout_s = subprocess_timeout_s()
    # The CLI's own budget ends first, so a slow candidate gets a `timeout` answer, not a kill.
    request["max_wall_ms"] = cli_budget_ms(timeout_s)
    try:
        if eval_mode() == "oneshot":
            code, stdout, stderr = run_cli(json.dumps(request), timeout_s)
        else:
            code, stdout, stderr = serve_client(tuple(cli_command())).ask(json.dumps(request), timeout_s)
    except subprocess.TimeoutExpired as e:
        return _failure(stage, "timeout", f"blis evaluate did not answer within {timeout_s:.1f} s", _text(e.stderr))
    except OSError as e:
        return _failure(stage, "launch", f"cannot start {' '.join(cli_command())}: {e}", "")
    try:
        response = json.loads(stdout.strip().splitlines()[-1]) if stdout.strip() else None
    except ValueError:
        response = None
    if not isinstance(response, dict) or "status" not in response:
        return _failure(stage, "non_json", f"blis evaluate exited {code} without a response line; stdout: {stdout[:500]!r}", stderr)
    if response.get("status") != "ok":
        return _failure(stage, str(response.get("status")), _describe_error(response.get("error")), stderr)
    return _success(stage, response, stderr)


def _success(stage: str, response: Dict[str, Any], stderr: str) -> EvaluationResult:
    metrics: Dict[str, float] = {}
    for source in (response.get("metrics") or {}, response.get("features") or {}):
        for k, v in source.items():
            if isinstance(v, (int, float)) and math.isfinite(v):
                metrics[k] = float(v)
    score = float(response["combined_score"])
    if stage == "stage1" and metrics.get("invariant_violations", 0.0) > 0:
        # A policy that loses requests or breaks a P/D or KV invariant goes no further.
        score = 0.0
    metrics["combined_score"] = score
    metrics[f"{stage}_score"] = score
    per_scenario = [
        {"id": s.get("id"), "score": s.get("score"), "objective_scores": s.get("objective_scores"), "feedback": s.get("feedback")}
        for s in response.get("per_scenario") or []
    ]
    artifacts: Dict[str, Union[str, bytes]] = {
        "summary": f"{stage}: combined_score {score:.4f}\n{(response.get('artifacts') or {}).get('summary', '')}",
        "per_scenario": json.dumps(per_scenario, indent=1),
        "stderr": stderr[-STDERR_TAIL_CHARS:],
    }
    return EvaluationResult(metrics, artifacts)


def _failure(stage: str, kind: str, message: str, stderr: str) -> EvaluationResult:
    tail = stderr[-STDERR_TAIL_CHARS:]
    return EvaluationResult(
        {"combined_score": 0.0, "error": 0.0},
        {"stderr": f"{message}\n{tail}".strip(), "failure_stage": f"{stage}: {kind}"},
    )


def _describe_error(error: Any) -> str:
    if not isinstance(error, dict):
        return "blis evaluate answered without an error description"
    lines = [f"{error.get('kind', 'error')}: {error.get('message', '')}"]
    for issue in error.get("issues") or []:
        lines.append(f"- {issue.get('where')}: expected {issue.get('expected')}, found {issue.get('found')}")
    return "\n".join(lines)


def _text(v: Union[str, bytes, None]) -> str:
    if v is None:
        return ""
    return v.decode("utf-8", "replace") if isinstance(v, bytes) else v


# ---------------------------------------------------------------------------------------------
# The request


def candidate_for(program_path: str, text: str) -> Dict[str, Any]:
    """The `candidate` of the request: by the program's suffix, a TS/JS module or a policy bundle."""
    suffix = Path(program_path).suffix.lower()
    if suffix in (".yaml", ".yml"):
        return {"kind": "policy-yaml", "text": text}
    language = "javascript" if suffix in (".js", ".mjs") else "typescript"
    return {"kind": "policy-module", "text": text, "language": language, "policy_kind": "routing"}


def load_scenarios() -> Dict[str, Any]:
    return json.loads(SCENARIOS_FILE.read_text(encoding="utf-8"))


def scenarios_for(stage: str, doc: Optional[Dict[str, Any]] = None) -> List[Dict[str, Any]]:
    d = doc if doc is not None else load_scenarios()
    if stage == "stage1":
        return list(d["stage1"])
    if stage in ("stage2", "full"):
        return list(d["stage2"])
    # Robustness is judged with the full set included, so that the score stage 3 leaves behind
    # (OpenEvolve keeps the last stage's combined_score) still rewards the typical case.
    return list(d["stage2"]) + list(d["stage3"])


def build_request(candidate: Dict[str, Any], stage: str) -> Dict[str, Any]:
    doc = load_scenarios()
    return {
        "protocol": "blis-eval/1",
        "candidate": candidate,
        "base_config": doc.get("base_config", {}),
        "scenarios": scenarios_for(stage, doc),
        "objectives": doc["objectives"],
        "trace": "summary",
    }


# ---------------------------------------------------------------------------------------------
# The CLI


def cli_command() -> List[str]:
    """`$BLIS_CLI` split like a shell would, else the repository's current bundle, else its bin."""
    override = os.environ.get("BLIS_CLI", "").strip()
    if override:
        return shlex.split(override)
    bundle = current_bundle(HERE.parents[1])
    if bundle is not None:
        return ["node", str(bundle)]
    return ["node", str(HERE.parents[1] / "packages" / "cli" / "bin" / "blis.js")]


_bundles: Dict[Path, Optional[Path]] = {}


def current_bundle(repo: Path) -> Optional[Path]:
    """`packages/cli/dist/cli.cjs` when it is newer than every file of `packages/*/src`, else None.

    The bundle starts in a fraction of the time tsx takes to run the sources; a stale one would
    evaluate yesterday's simulator, so any newer source file sends the evaluator to the sources.
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


def eval_mode() -> str:
    """`serve` (one persistent CLI per evaluator process, the default) or `oneshot` (`$BLIS_EVAL_MODE`)."""
    mode = os.environ.get("BLIS_EVAL_MODE", "").strip().lower() or "serve"
    if mode not in ("serve", "oneshot"):
        raise ValueError(f"BLIS_EVAL_MODE must be serve or oneshot, not {mode!r}")
    return mode


def configured_timeout_s() -> float:
    """`$BLIS_EVAL_TIMEOUT_S`, else `evaluator.timeout` of config.yaml, else OpenEvolve's 300 s."""
    env = os.environ.get("BLIS_EVAL_TIMEOUT_S", "").strip()
    if env:
        return float(env)
    value = read_config_value(CONFIG_FILE, "evaluator", "timeout")
    return float(value) if value is not None else DEFAULT_TIMEOUT_S


def subprocess_timeout_s() -> float:
    return 0.9 * configured_timeout_s()


def cli_budget_ms(timeout_s: float) -> int:
    """The CLI's `max_wall_ms` within a `timeout_s` wait: a tenth less, and at least a second less
    (never more than half), so that its `timeout` answer arrives first on a loaded machine too."""
    reserve = min(max(0.1 * timeout_s, 1.0), 0.5 * timeout_s)
    return max(1, round((timeout_s - reserve) * 1000))


def read_config_value(path: Path, section: str, key: str) -> Optional[str]:
    """One scalar `key` of a top-level `section` of a YAML file (no YAML parser in the stdlib)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    inside = False
    for line in lines:
        bare = line.split("#", 1)[0].rstrip()
        if bare == "":
            continue
        if not line[0].isspace():
            inside = bare == f"{section}:"
            continue
        m = re.match(rf"\s+{re.escape(key)}:\s*(\S.*)$", bare)
        if inside and m:
            return m.group(1).strip().strip("\"'")
    return None


def run_cli(payload: str, timeout_s: float, args: Tuple[str, ...] = ("evaluate",)) -> Tuple[int, str, str]:
    """Runs the CLI with `payload` on stdin; on timeout kills its whole process group and raises."""
    # A new session, so that the launcher's child (the CLI runs its sources in a second node
    # process) dies with it: killing the launcher alone would leave the pipes open.
    proc = subprocess.Popen(
        [*cli_command(), *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        start_new_session=True,
    )
    try:
        stdout, stderr = proc.communicate(payload, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        _, stderr = proc.communicate()
        raise subprocess.TimeoutExpired(proc.args, timeout_s, stderr=stderr)
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


# ---------------------------------------------------------------------------------------------
# The persistent CLI


class ServeClient:
    """One `blis evaluate --serve` child: a request line in, its response line out.

    Started on the first `ask`, and again after it died or was killed. `ask` returns what
    `run_cli` returns (exit code, stdout, stderr), so that the caller treats both alike: code 0
    with the response line, or the child's exit code and its stderr when it ended without one.
    """

    def __init__(self, command: Tuple[str, ...]) -> None:
        self.command = command
        self._proc: Optional[subprocess.Popen] = None
        self._lines: "queue.Queue[Optional[str]]" = queue.Queue()
        self._stderr: deque = deque(maxlen=400)
        self._stderr_done = threading.Event()
        self._lock = threading.Lock()

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
                self.close(kill=True)
                raise subprocess.TimeoutExpired(list(self.command), timeout_s, stderr=self._stderr_text())
            if line is None:
                code = proc.wait()
                self._stderr_done.wait(5)
                self.close(kill=True)
                return code if code != 0 else 1, "", self._stderr_text()
            return 0, line, self._stderr_text()

    def _start(self) -> None:
        self._lines = queue.Queue()
        self._stderr = deque(maxlen=400)
        self._stderr_done = threading.Event()
        # A new session, so that the launcher's child (in a checkout the CLI runs its sources in a
        # second node process) can be killed with it.
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

    def _stderr_text(self) -> str:
        return "".join(list(self._stderr))

    # How long a child may take to end after its input closed before it is killed.
    STOP_GRACE_S = 10.0

    def close(self, kill: bool = False) -> None:
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


_clients: Dict[Tuple[str, ...], ServeClient] = {}


def serve_client(command: Tuple[str, ...]) -> ServeClient:
    """This process's persistent CLI for `command` (a changed `$BLIS_CLI` gets its own)."""
    client = _clients.get(command)
    if client is None:
        client = _clients[command] = ServeClient(command)
    return client


@atexit.register
def _close_clients() -> None:
    for client in _clients.values():
        client.close()
