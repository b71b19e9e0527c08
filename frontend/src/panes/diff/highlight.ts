// Light syntax highlighting for diff lines: one regular expression per
// language family picks out comments, strings, numbers and keywords within a
// single line. It knows nothing of state across lines (a block comment that
// spans lines is only coloured on its first line): cheap and good enough to
// read a diff. Output is HTML with the text escaped.

interface Lang {
  re: RegExp;
  kw: ReadonlySet<string>;
}

const words = (s: string): ReadonlySet<string> => new Set(s.split(' '));

const jsKw = words('async await break case catch class const continue debugger default delete do else enum export extends false finally for from function if implements import in instanceof interface let new null of private protected public readonly return static super switch this throw true try type typeof undefined var void while yield as satisfies declare keyof');
const goKw = words('break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var nil true false iota any error string int int64 uint8 byte rune bool float64');
const rsKw = words('as async await break const continue crate dyn else enum extern false fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait true type unsafe use where while Some None Ok Err');
const cKw = words('auto bool break case catch char class const continue default delete do double else enum extern false final float for fun goto if import include define int long namespace new null nullptr override package private protected public return short signed sizeof static struct super switch template this throw throws true try typedef union unsigned using val var virtual void volatile when while');
const pyKw = words('and as assert async await break class continue def del elif else except False finally for from global if import in is lambda None nonlocal not or pass raise return self True try while with yield match case');
const shKw = words('if then else elif fi for while until do done case esac in function return local export readonly set unset echo exit source true false');
const rbKw = words('begin break case class def defined do else elsif end ensure false for if in module next nil not or redo rescue retry return self super then true undef unless until when while yield require');
const sqlKw = words('select from where and or not insert into values update set delete create table index drop alter join left right inner outer on as group by order limit null primary key references default SELECT FROM WHERE AND OR NOT INSERT INTO VALUES UPDATE SET DELETE CREATE TABLE INDEX DROP ALTER JOIN LEFT RIGHT INNER OUTER ON AS GROUP BY ORDER LIMIT NULL PRIMARY KEY REFERENCES DEFAULT');
const dataKw = words('true false null yes no on off');
const none: ReadonlySet<string> = new Set();

// Strings must close on the same line (an apostrophe in a Rust lifetime or in
// prose would otherwise colour the rest of the line); backquoted ones may not.
const dq = String.raw`"(?:[^"\\]|\\.)*"`;
const sq = String.raw`'(?:[^'\\]|\\.)*'`;
const bq = String.raw`\`(?:[^\`\\]|\\.)*\`?`;
const num = String.raw`\b(?:0[xXbBoO][\da-fA-F_]+|\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?)\b`;
const ident = String.raw`[A-Za-z_$][\w$]*`;

/** Builds the one-line scanner: group 1 comment, 2 string, 3 number, 4 word. */
function lang(comments: string[], strings: string[], kw: ReadonlySet<string>): Lang {
  const re = new RegExp(`(${comments.join('|')})|(${strings.join('|')})|(${num})|(${ident})`, 'g');
  return { re, kw };
}

const slashes = [String.raw`\/\/.*`, String.raw`\/\*.*?(?:\*\/|$)`];
const hash = ['#.*'];
const dashes = ['--.*'];

const langs = {
  js: lang(slashes, [dq, sq, bq], jsKw),
  go: lang(slashes, [dq, bq, sq], goKw),
  rs: lang(slashes, [dq], rsKw),
  c: lang(slashes, [dq, sq], cKw),
  py: lang(hash, [dq, sq], pyKw),
  sh: lang(hash, [dq, sq], shKw),
  rb: lang(hash, [dq, sq], rbKw),
  sql: lang(dashes, [sq, dq], sqlKw),
  data: lang(hash, [dq, sq], dataKw),
  json: lang([], [dq], dataKw),
  css: lang([String.raw`\/\*.*?(?:\*\/|$)`], [dq, sq], none),
  markup: lang(['<!--.*?(?:-->|$)'], [dq], none),
};

const byExt: Record<string, Lang> = {
  js: langs.js, mjs: langs.js, cjs: langs.js, jsx: langs.js, ts: langs.js, tsx: langs.js, mts: langs.js, cts: langs.js, vue: langs.js, svelte: langs.js,
  go: langs.go, rs: langs.rs,
  c: langs.c, h: langs.c, cc: langs.c, cpp: langs.c, hpp: langs.c, cxx: langs.c, java: langs.c, kt: langs.c, kts: langs.c, cs: langs.c, swift: langs.c, scala: langs.c, dart: langs.c, php: langs.c, proto: langs.c,
  py: langs.py, pyi: langs.py,
  sh: langs.sh, bash: langs.sh, zsh: langs.sh, fish: langs.sh,
  rb: langs.rb, rake: langs.rb,
  sql: langs.sql, lua: langs.sql,
  yml: langs.data, yaml: langs.data, toml: langs.data, ini: langs.data, conf: langs.data, cfg: langs.data, env: langs.data, mod: langs.data,
  json: langs.json, jsonc: langs.js,
  css: langs.css, scss: langs.js, less: langs.js,
  html: langs.markup, htm: langs.markup, xml: langs.markup, svg: langs.markup,
};

const byName: Record<string, Lang> = { makefile: langs.sh, dockerfile: langs.sh, gemfile: langs.rb, rakefile: langs.rb };

/** The scanner for a path, by extension or well-known file name; null for plain text. */
export function langFor(path: string): Lang | null {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const named = byName[name];
  if (named !== undefined) return named;
  const dot = name.lastIndexOf('.');
  if (dot < 0) return null;
  return byExt[name.slice(dot + 1)] ?? null;
}

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** Text made safe for HTML content and attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => escapes[c] ?? c);
}

const classes = ['', 'tk-c', 'tk-s', 'tk-n', 'tk-k'];

/** One line as HTML: escaped text, tokens wrapped in <span class="tk-…">. */
export function highlightLine(text: string, l: Lang): string {
  let out = '';
  let last = 0;
  l.re.lastIndex = 0;
  for (let m = l.re.exec(text); m !== null; m = l.re.exec(text)) {
    if (m[0] === '') {
      l.re.lastIndex++; // never loop on an empty match
      continue;
    }
    const group = m[1] !== undefined ? 1 : m[2] !== undefined ? 2 : m[3] !== undefined ? 3 : 4;
    if (group === 4 && !l.kw.has(m[0])) continue; // a plain word stays in the plain run
    out += escapeHtml(text.slice(last, m.index));
    out += `<span class="${classes[group]}">${escapeHtml(m[0])}</span>`;
    last = m.index + m[0].length;
  }
  return out + escapeHtml(text.slice(last));
}
