#!/usr/bin/env python3
"""Record the raw PTY output of the real Claude Code CLI, for the pty-agent
worker's activity tests (worker/ptyagent/recording_test.go).

usage: record.py OUT.jsonl PERMISSION_MODE|- STEP...
  STEP is  sleep:SECONDS | wait:REGEX | send:TEXT | send@STATE:TEXT
  TEXT takes Python escapes (\\r, \\x1b[B); STATE (idle, active, asking) is
  the activity a person sees on screen just before sending.
  wait:REGEX matches the output with escape sequences removed; the CLI
  places words with cursor moves, so use single words.

Environment: FAKEAPI (a built internal/fakeapi/cmd/fakeapi), CLAUDE (the
CLI, default node_modules/.bin/claude), WORK (the cwd, default
/tmp/rec/work). The CLI runs at 120x32 in a fresh HOME seeded as
claude-cli.md section 9 says, against the fake API only.

Output lines: {"t": seconds, "out": base64 bytes} for each PTY read, and
{"t": seconds, "in": text, "want": state} for each input.
"""
import base64, fcntl, json, os, pty, re, select, shutil, signal, struct, subprocess, sys, termios, time

out, mode, steps = sys.argv[1], sys.argv[2], sys.argv[3:]
work = os.environ.get('WORK', '/tmp/rec/work')
home = work + '-home'
shutil.rmtree(work, ignore_errors=True); shutil.rmtree(home, ignore_errors=True)
os.makedirs(home + '/.claude'); os.makedirs(work)
fa = subprocess.Popen([os.environ['FAKEAPI']], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                      env=dict(os.environ, FAKEAPI_SLOW_DELAY='150ms'))
url = fa.stdout.readline().decode().strip()
json.dump({"hasCompletedOnboarding": True,
           "projects": {work: {"hasTrustDialogAccepted": True, "hasCompletedProjectOnboarding": True}},
           "customApiKeyResponses": {"approved": ["sk-fake"], "rejected": []}},
          open(home + '/.claude/.claude.json', 'w'))
env = {"PATH": os.environ['PATH'], "HOME": home, "TERM": "xterm-256color", "LANG": "C.UTF-8",
       "CLAUDE_CONFIG_DIR": home + '/.claude', "ANTHROPIC_API_KEY": "sk-fake", "ANTHROPIC_BASE_URL": url,
       "HTTPS_PROXY": url, "HTTP_PROXY": url, "NO_PROXY": "127.0.0.1,localhost", "CLAUDE_CODE_MAX_RETRIES": "1",
       "DISABLE_TELEMETRY": "1", "DISABLE_ERROR_REPORTING": "1", "DISABLE_AUTOUPDATER": "1",
       "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
       "CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL": "1", "SHELL": "/bin/bash"}
args = [os.environ.get('CLAUDE', 'node_modules/.bin/claude')]
if mode != '-':
    args += ['--permission-mode', mode]
size = struct.pack('HHHH', 32, 120, 0, 0)
pid, fd = pty.fork()
if pid == 0:
    os.chdir(work)
    fcntl.ioctl(0, termios.TIOCSWINSZ, size)
    os.execve(os.path.abspath(args[0]) if '/' in args[0] else args[0], args, env)
fcntl.ioctl(fd, termios.TIOCSWINSZ, size)
t0, log, buf = time.time(), [], b''


def pump(secs):
    global buf
    end = time.time() + secs
    while (left := end - time.time()) > 0:
        if select.select([fd], [], [], left)[0]:
            try:
                d = os.read(fd, 65536)
            except OSError:
                return False
            if not d:
                return False
            log.append({"t": round(time.time() - t0, 3), "out": base64.b64encode(d).decode()})
            buf += d
    return True


def visible(b):
    return re.sub(r'\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78DEHMc]',
                  '', b.decode('utf-8', 'replace'))


for st in steps:
    kind, v = st.split(':', 1)
    if kind == 'sleep':
        pump(float(v))
    elif kind == 'wait':
        end = time.time() + 30
        while not re.search(v, visible(buf)[-4000:]) and time.time() < end and pump(0.1):
            pass
    elif kind.startswith('send'):
        data = v.encode().decode('unicode_escape').encode()
        e = {"t": round(time.time() - t0, 3), "in": data.decode()}
        if '@' in kind:
            e["want"] = kind.split('@', 1)[1]
        log.append(e)
        os.write(fd, data)
pump(1)
try:
    os.kill(pid, signal.SIGKILL)
except ProcessLookupError:
    pass
fa.stdin.close()
fa.wait()
with open(out, 'w') as f:
    for e in log:
        f.write(json.dumps(e, ensure_ascii=False) + "\n")
