#!/usr/bin/env python3
"""Times `arena serve DIR` of a league folder (tools/league_live_synth.py):

    python3 tools/league_live_measure.py ARENA DIR

prints one JSON line: `ready_s` (start to the URL line), then per request
(`/state`, the page, a search, a bot's record, a page of the retired
table) its milliseconds and bytes, and the server's peak memory (VmHWM).
One run each: a rough guide, not a benchmark.
"""
import subprocess, sys, time, re, urllib.request, json
arena, folder = sys.argv[1], sys.argv[2]
t0 = time.monotonic()
p = subprocess.Popen([arena, "serve", folder], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
for line in p.stderr:
    m = re.match(r"arena: live view at (http://\S+/)", line)
    if m:
        url = m.group(1); break
ready = time.monotonic() - t0
def get(path):
    t = time.monotonic()
    with urllib.request.urlopen(url + path, timeout=600) as r:
        body = r.read()
    return time.monotonic() - t, len(body), body
out = {"ready_s": round(ready, 2)}
for name, path in [("state", "state"), ("page", ""), ("search", "league?find=bot0012"), ("bot", "bot?name=bot00012"), ("retired", "league?table=retired&offset=100")]:
    try:
        dt, n, body = get(path)
        out[name] = (round(dt * 1000, 1), n)
    except Exception as e:
        out[name] = str(e)
status = open(f"/proc/{p.pid}/status").read()
out["VmHWM"] = re.search(r"VmHWM:\s+(\d+ kB)", status).group(1)
p.terminate(); p.wait()
print(json.dumps(out))
