"""A stand-in for `blis evaluate` in failure tests: `fake_cli.py MODE [args...]` (the evaluator
appends `evaluate`, which is ignored).

- `nonjson`: prints a line that is not JSON and exits 0;
- `crash`: prints a message on stderr and exits 1 with nothing on stdout;
- `sleep`: sleeps far longer than any test's timeout;
- `canned FILE`: reads the request from stdin and prints FILE's JSON response.
"""

import sys
import time

mode = sys.argv[1]
if mode == "nonjson":
    sys.stdin.read()
    print("this is not a response")
elif mode == "crash":
    sys.stdin.read()
    sys.stderr.write("internal error: something broke\n")
    sys.exit(1)
elif mode == "sleep":
    time.sleep(60)
elif mode == "canned":
    sys.stdin.read()
    with open(sys.argv[2], encoding="utf-8") as f:
        sys.stdout.write(f.read().strip() + "\n")
else:
    sys.exit(f"fake_cli.py: unknown mode {mode}")
