// Generated conversations for the chat benchmarks: a claude CLI session file
// (the JSONL the CLI keeps in <config>/projects/<cwd with every non-alphanumeric
// character as ->/<session id>.jsonl), which agentdesk adopts and other web
// UIs read as they are. A conversation of n messages is a run of turns, each
// of five lines: the person's prompt, an assistant answer in markdown (a
// paragraph, a list, a code block), a Bash call, its output, and a closing
// answer. Every text carries its message's number (`m<i>`), and the last
// message ends with lastMarker(n), a word that appears nowhere else, so a
// page can tell when the newest message is on screen.
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';

/** The word the last message of a conversation of n messages ends with. */
export const lastMarker = (n) => `zzlast${n}zz`;

/** The CLI's project directory name for cwd. */
export const projectDirName = (cwd) => cwd.replace(/[^a-zA-Z0-9]/g, '-');

/** The session file's path for cwd and the session id, under the CLI's config dir. */
export const sessionFilePath = (configDir, cwd, sid) => path.join(configDir, 'projects', projectDirName(cwd), `${sid}.jsonl`);

const words = ('the a of to in and is that for it with as on this be by are we can file test run build go code '
  + 'server client page chat message render list table value error state queue cache store index search time').split(' ');

function sentence(i, k) {
  const out = [];
  for (let j = 0; j < 14; j++) out.push(words[(i * 7 + k * 13 + j * 5) % words.length]);
  return out.join(' ');
}

function assistantText(i) {
  return `Here is what I found for **m${i}**: ${sentence(i, 1)}. ${sentence(i, 8)}.\n\n`
    + `- ${sentence(i, 2)}\n- ${sentence(i, 3)}\n- \`m${i}.go\` ${sentence(i, 4)}\n- ${sentence(i, 9)}\n\n`
    + '```go\nfunc f' + i + '(a, b int) int {\n'
    + [5, 10, 11, 12, 13].map((k) => `\t// ${sentence(i, k)}\n`).join('')
    + '\treturn a + b\n}\n```\n\n'
    + `${sentence(i, 6)}. ${sentence(i, 14)}, ${sentence(i, 15)}.`;
}

/**
 * The session file's lines for n messages, as objects (oldest first). The
 * timestamps are one second apart, ending now.
 */
export function* conversationLines(n, { sid, cwd }) {
  let parent = null;
  const t0 = Date.now() - n * 1000;
  const base = (i, type) => {
    const uuid = randomUUID();
    const line = {
      parentUuid: parent, isSidechain: false, userType: 'external', cwd, sessionId: sid,
      version: '2.1.330', gitBranch: 'main', type, uuid, timestamp: new Date(t0 + i * 1000).toISOString(),
    };
    parent = uuid;
    return line;
  };
  for (let i = 0; i < n; i++) {
    const last = i === n - 1;
    const tail = last ? ` ${lastMarker(n)}` : '';
    const tool = `toolu_${String(i - (i % 5) + 2).padStart(8, '0')}`;
    const msgId = `msg_${String(i - (i % 5)).padStart(8, '0')}_${i % 5}`;
    const assistant = (content) => ({
      ...base(i, 'assistant'), requestId: `req_${i}`,
      message: { id: msgId, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content,
        stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 40 } },
    });
    switch (last ? 4 : i % 5) {
      case 0:
        yield { ...base(i, 'user'), message: { role: 'user', content: `Please look at m${i}: ${sentence(i, 0)}?${tail}` } };
        break;
      case 1:
        yield assistant([{ type: 'text', text: assistantText(i) + tail }]);
        break;
      case 2:
        yield assistant([{ type: 'tool_use', id: tool, name: 'Bash', input: { command: `go test ./m${i}/...`, description: `Run the tests of m${i}` } }]);
        break;
      case 3:
        yield {
          ...base(i, 'user'),
          message: { role: 'user', content: [{ tool_use_id: `toolu_${String(i - (i % 5) + 2).padStart(8, '0')}`, type: 'tool_result',
            content: Array.from({ length: 16 }, (_, k) => `ok  \tgithub.com/example/m${i}/pkg${k}\t0.0${k % 10}s\tcoverage: ${40 + k}.0% of statements`).join('\n'), is_error: false }] },
          toolUseResult: { stdout: `ok m${i}`, stderr: '', interrupted: false, isImage: false },
        };
        break;
      default:
        yield assistant([{ type: 'text', text: `Done with m${i}: ${sentence(i, 7)}.${tail}` }]);
    }
  }
}

/** Writes a conversation of n messages as a session file under configDir; returns its path. */
export async function writeConversation(configDir, { n, sid, cwd }) {
  const file = sessionFilePath(configDir, cwd, sid);
  await mkdir(path.dirname(file), { recursive: true });
  const out = createWriteStream(file);
  for (const line of conversationLines(n, { sid, cwd })) {
    if (!out.write(JSON.stringify(line) + '\n')) await new Promise((r) => out.once('drain', r));
  }
  await new Promise((resolve, reject) => out.end((err) => (err ? reject(err) : resolve())));
  return file;
}
