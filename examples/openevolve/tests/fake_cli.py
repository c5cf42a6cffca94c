"""A stand-in for `blis evaluate` in failure tests: `fake_cli.py MODE [args...]` (the evaluator
appends `evaluate`, or `evaluate --serve` for its persistent child).

- `nonjson`: answers a request with a line that is not JSON;
- `crash`: prints a message on stderr and exits 1 with nothing on stdout;
- `sleep`: sleeps far longer than any test's timeout;
- `canned FILE`: answers a request with FILE's JSON response;
- `linger`: answers a request with the pid of a child it started (which sleeps, in its process
  group), and goes on sleeping after stdin closes: a child that ignores the end of its input.

Without `--serve` the request is all of stdin and the process ends after its answer; with it,
each line is a request and the process runs until stdin closes, as `blis evaluate --serve` does.
"""

import subprocess
import sys
import time

mode = sys.argv[1]
serve = "--serve" in sys.argv


def answer(request: str) -> None:
    if mode == "nonjson":
        print("this is not a response", flush=True)
    elif mode == "crash":
        sys.stderr.write("internal error: something broke\n")
        sys.exit(1)
    elif mode == "sleep":
        time.sleep(60)
    elif mode == "canned":
        with open(sys.argv[2], encoding="utf-8") as f:
            sys.stdout.write(f.read().strip() + "\n")
            sys.stdout.flush()
    elif mode == "linger":
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        print(child.pid, flush=True)
    else:
        sys.exit(f"fake_cli.py: unknown mode {mode}")


if serve:
    for line in sys.stdin:
        if line.strip():
            answer(line)
    if mode == "linger":
        time.sleep(60)
else:
    answer(sys.stdin.read())
