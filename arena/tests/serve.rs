//! The live view's server as a visitor and as an attacker sees it: real
//! `arena run --serve` and `arena serve` processes, real sockets, raw HTTP
//! (written by hand, so that paths reach the server exactly as an attacker
//! sends them, not as a client library would clean them up).
//!
//! - the URL on stderr (also with `--quiet`), before the first game; `/`,
//!   `/state`, `/events` (first event `snapshot`), `/game`, `/report`;
//! - path traversal, absolute paths and the `file` parameter never return a
//!   file's bytes; a foreign `Host` header is refused; the default bind is
//!   loopback only;
//! - 50 clients that never read `/events` and 50 that send half a request do
//!   not stop the run from finishing with every game in games.csv;
//! - `arena serve DIR` of a finished, an in-progress (rows appended while it
//!   serves, a torn last line waited for) and a merged folder;
//! - bad `--serve` input: one line naming it and the fix, exit 2, no game.

// Unix only: signals to the arena (docs/platforms.md, Windows).
#![cfg(unix)]

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream, UdpSocket};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use common::{
    arena, arena_bot, arena_command, assert_contains, assert_success, config, games,
    greedy_and_random, merge, rows, run_arena, run_shards, run_to, stderr_of, temp_config,
};
use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;

/// The longest a test waits for any one thing (a line, a response, a run).
const DEADLINE: Duration = Duration::from_secs(120);

/// A bundled bot that waits `think_ms` before each move (so a run lasts
/// long enough to be looked at).
fn slow_bot(name: &str, seed: u64, think_ms: u64) -> Vec<String> {
    let mut bot = arena_bot(name, seed);
    bot.extend(["--think-ms".to_string(), think_ms.to_string()]);
    bot
}

/// A running arena (`run --serve` or `serve`) and its stderr, line by line.
struct Served {
    child: Child,
    /// The address in the URL it printed.
    addr: SocketAddr,
    /// The URL line as printed.
    url_line: String,
    /// The stderr lines before it.
    before: Vec<String>,
    /// Every stderr line, as they come (a thread reads them).
    lines: mpsc::Receiver<String>,
}

impl Served {
    /// `arena run CFG --serve SERVE… --quiet --out OUT` from the folder
    /// `cwd`, served; `serve` is the address, if any.
    fn run(cwd: &Path, cfg: &str, out: &Path, serve: &[&str]) -> Served {
        let mut args = vec!["run", cfg, "--serve"];
        args.extend(serve);
        args.extend(["--quiet", "--out", out.to_str().unwrap()]);
        Served::start(cwd, &args)
    }

    /// The long SPRT match of [`sprt_config`] (20 ms a move) written in
    /// `dir`, run into `dir/out` and served; `serve` is the address, if
    /// any. The run folder and the served run.
    fn sprt(dir: &Path, serve: &[&str]) -> (PathBuf, Served) {
        let cfg = sprt_config(dir, 20);
        let out = dir.join("out");
        let served = Served::run(dir, cfg.to_str().unwrap(), &out, serve);
        (out, served)
    }

    /// Starts `arena ARGS` in `cwd` and waits for its URL line.
    // The child is waited for by `Served`'s drop (and killed first).
    #[allow(clippy::zombie_processes)]
    fn start(cwd: &Path, args: &[&str]) -> Served {
        let mut child = arena_command()
            .args(args)
            .current_dir(cwd)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (tx, lines) = mpsc::channel();
        let stderr = BufReader::new(child.stderr.take().unwrap());
        std::thread::spawn(move || {
            for line in stderr.lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let deadline = Instant::now() + DEADLINE;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match lines.recv_timeout(left) {
                Ok(line) => line,
                Err(e) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    panic!("no URL line on stderr ({e}); it said: {seen:#?}");
                }
            };
            if let Some(url) = line.strip_prefix("arena: live view at http://") {
                let addr = url
                    .strip_suffix('/')
                    .unwrap_or_else(|| panic!("the URL line does not end with '/': {line:?}"));
                let addr: SocketAddr = addr
                    .parse()
                    .unwrap_or_else(|e| panic!("{line:?}: not HOST:PORT ({e})"));
                return Served {
                    child,
                    addr,
                    url_line: line,
                    before: seen,
                    lines,
                };
            }
            seen.push(line);
        }
    }

    /// `GET path` with a Host header naming the served address.
    fn get(&self, path: &str) -> Response {
        get(self.addr, path)
    }

    /// Waits for the process to end; its exit code and the stderr lines
    /// after the URL line.
    fn wait(mut self) -> (Option<i32>, Vec<String>) {
        let deadline = Instant::now() + DEADLINE;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                // The reader thread ends at the end of stderr.
                let mut rest = Vec::new();
                while let Ok(line) = self.lines.recv_timeout(deadline - Instant::now()) {
                    rest.push(line);
                }
                return (status.code(), rest);
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("the arena did not end within {DEADLINE:?}");
            }
            // A process has no readiness to wait on here: poll its status.
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Sends SIGINT (Ctrl-C) and waits for the process to end.
    fn interrupt(self) -> (Option<i32>, Vec<String>) {
        kill(Pid::from_raw(self.child.id() as i32), Signal::SIGINT).unwrap();
        self.wait()
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP response: status, headers (names lower-case) and the body (chunked
/// transfer decoded).
#[derive(Debug)]
struct Response {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Response {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }
}

/// Splits `raw` into a response's head and body; `None` while the head is
/// incomplete. The body is what has come of it so far, dechunked.
fn parse(raw: &[u8]) -> Option<Response> {
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = String::from_utf8_lossy(&raw[..end]);
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap();
    let status = status_line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("bad status line {status_line:?}"));
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let mut body = raw[end + 4..].to_vec();
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"));
    if chunked {
        body = dechunk(&body);
    }
    Some(Response {
        status,
        headers,
        body,
    })
}

/// The data of the complete chunks of a chunked body.
fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(eol) = raw.windows(2).position(|w| w == b"\r\n") else {
            return out;
        };
        let size = String::from_utf8_lossy(&raw[..eol]);
        let Ok(size) = usize::from_str_radix(size.split(';').next().unwrap().trim(), 16) else {
            return out;
        };
        if size == 0 || raw.len() < eol + 2 + size {
            return out;
        }
        out.extend_from_slice(&raw[eol + 2..eol + 2 + size]);
        raw = &raw[(eol + 2 + size + 2).min(raw.len())..];
    }
}

/// Sends `request` as it is and reads the response to the end (the request
/// says `Connection: close`).
fn exchange(addr: SocketAddr, request: &[u8]) -> Response {
    let mut stream = TcpStream::connect_timeout(&addr, DEADLINE).unwrap();
    stream.set_read_timeout(Some(DEADLINE)).unwrap();
    stream.write_all(request).unwrap();
    let mut raw = Vec::new();
    // A server may reset a refused connection after its answer.
    let _ = stream.read_to_end(&mut raw);
    parse(&raw).unwrap_or_else(|| {
        panic!(
            "no HTTP response to {:?}: {:?}",
            String::from_utf8_lossy(request),
            String::from_utf8_lossy(&raw)
        )
    })
}

/// `GET path` with the Host header `host`.
fn get_with_host(addr: SocketAddr, path: &str, host: &str) -> Response {
    exchange(
        addr,
        format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").as_bytes(),
    )
}

/// `GET path` with the served address as the Host header.
fn get(addr: SocketAddr, path: &str) -> Response {
    get_with_host(addr, path, &addr.to_string())
}

/// A connection to `/events` at `addr`, its request sent; reads time out
/// after [`DEADLINE`].
fn open_events(addr: SocketAddr) -> TcpStream {
    let mut stream = TcpStream::connect_timeout(&addr, DEADLINE).unwrap();
    stream.set_read_timeout(Some(DEADLINE)).unwrap();
    write!(
        stream,
        "GET /events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
    )
    .unwrap();
    stream
}

/// Reads what `/events` sends next onto `raw`: the response so far once
/// its head is whole. Fails, saying `what` was awaited, if it ended.
fn read_events(stream: &mut TcpStream, raw: &mut Vec<u8>, what: &str) -> Option<Response> {
    let mut buf = [0u8; 65536];
    let n = stream.read(&mut buf).unwrap();
    assert!(n > 0, "/events ended before {what}: {raw:?}");
    raw.extend_from_slice(&buf[..n]);
    parse(raw)
}

/// A whole event's name (`message` unless it names one) and its data
/// lines, in order.
fn event_fields(event: &str) -> (&str, Vec<&str>) {
    let mut name = "message";
    let mut data = Vec::new();
    for line in event.lines() {
        if let Some(v) = line.strip_prefix("event:") {
            name = v.trim();
        } else if let Some(v) = line.strip_prefix("data:") {
            data.push(v.strip_prefix(' ').unwrap_or(v));
        }
    }
    (name, data)
}

/// Opens `/events` and reads until the first whole event; its name and data.
fn first_event(addr: SocketAddr) -> (Response, String, String) {
    let mut stream = open_events(addr);
    let mut raw = Vec::new();
    let deadline = Instant::now() + DEADLINE;
    loop {
        assert!(Instant::now() < deadline, "no whole event from /events");
        let Some(response) = read_events(&mut stream, &mut raw, "its first event") else {
            continue;
        };
        let body = response.text().replace("\r\n", "\n");
        if let Some(end) = body.find("\n\n") {
            let (name, data) = event_fields(&body[..end]);
            let (name, data) = (name.to_string(), data.join("\n"));
            let _ = stream.shutdown(Shutdown::Both);
            return (response, name, data);
        }
    }
}

/// Polls `/state` until `pred` holds for it (or panics after the deadline,
/// naming `what`).
fn wait_state(
    addr: SocketAddr,
    what: &str,
    pred: impl Fn(&serde_json::Value) -> bool,
) -> serde_json::Value {
    let deadline = Instant::now() + DEADLINE;
    loop {
        let state = get(addr, "/state").json();
        if pred(&state) {
            return state;
        }
        assert!(Instant::now() < deadline, "{what}: never seen in {state}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The data rows of a games.csv (0 while it does not exist).
fn game_rows(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .map(|t| t.lines().count().saturating_sub(1))
        .unwrap_or(0)
}

/// A long SPRT match of two equal slow bots: it goes on until interrupted.
fn sprt_config(dir: &Path, think_ms: u64) -> PathBuf {
    config(
        dir,
        "name = \"live\"\n[board]\nholes = 6\n[tournament]\nconcurrency = 2\nmax_games = 2000\n\
         [sprt]\nelo0 = 0\nelo1 = 5\n",
        &[
            ("south-paw", slow_bot("random", 1, think_ms)),
            ("north-star", slow_bot("random", 2, think_ms)),
        ],
    )
}

fn assert_safe_headers(r: &Response, what: &str) {
    assert_eq!(r.header("cache-control"), Some("no-store"), "{what}: {r:?}");
    assert_eq!(
        r.header("x-content-type-options"),
        Some("nosniff"),
        "{what}: {r:?}"
    );
}

#[test]
fn the_url_on_stderr_with_quiet_then_the_page_the_state_and_the_events() {
    let tmp = tempfile::tempdir().unwrap();
    let (out, served) = Served::sprt(tmp.path(), &["127.0.0.1:0"]);
    // Before the first game: no game is in games.csv yet (a game of 20 ms
    // moves takes about a second).
    assert_eq!(game_rows(&out.join("games.csv")), 0, "{}", served.url_line);
    assert!(served.addr.ip().is_loopback(), "{}", served.url_line);
    assert_ne!(served.addr.port(), 0, "{}", served.url_line);

    let page = served.get("/");
    assert_eq!(page.status, 200, "{page:?}");
    assert!(
        page.header("content-type")
            .unwrap_or("")
            .starts_with("text/html"),
        "{page:?}"
    );
    assert_safe_headers(&page, "/");
    let html = page.text();
    for part in [
        "id=\"progress\"",
        "id=\"standings\"",
        "id=\"live-games\"",
        "id=\"viewer\"",
        "id=\"report-link\"",
        "data-state=",
    ] {
        assert!(html.contains(part), "the page has no {part}: {html}");
    }
    // Self-contained: no script, style or image from anywhere else.
    for outside in [
        "src=\"http",
        "href=\"http",
        "src=\"//",
        "href=\"//",
        "@import",
    ] {
        assert!(!html.contains(outside), "the page loads {outside}...");
    }

    let state = served.get("/state");
    assert_eq!(state.status, 200, "{state:?}");
    assert!(
        state.header("content-type").unwrap_or("").contains("json"),
        "{state:?}"
    );
    assert_safe_headers(&state, "/state");
    let state = state.json();
    assert_eq!(state["finished"], false, "{state}");
    assert_eq!(state["bound"], 2000, "{state}");
    let mut bots = state["bots"].as_array().unwrap().clone();
    bots.sort_by_key(|b| b.to_string());
    assert_eq!(bots, ["north-star", "south-paw"], "{state}");
    assert!(state["done"].is_u64(), "{state}");
    assert!(state["standings"].is_array(), "{state}");
    assert!(state["live"].is_array(), "{state}");

    let (events, name, data) = first_event(served.addr);
    assert_eq!(events.status, 200, "{events:?}");
    assert!(
        events
            .header("content-type")
            .unwrap_or("")
            .starts_with("text/event-stream"),
        "{events:?}"
    );
    assert_safe_headers(&events, "/events");
    assert_eq!(name, "snapshot", "the first event: {data}");
    let snapshot: serde_json::Value = serde_json::from_str(&data)
        .unwrap_or_else(|e| panic!("the snapshot is not JSON ({e}): {data}"));
    assert_eq!(snapshot["bots"], state["bots"], "{snapshot}");

    // Games in progress advance, ply by ply, as /state shows them; games
    // end and are counted, standings and SPRT pairs grow.
    let first = wait_state(served.addr, "a game in progress", |s| {
        s["live"].as_array().is_some_and(|l| !l.is_empty())
    });
    let game = first["live"][0].clone();
    for key in ["series", "game", "south", "north", "ply", "position"] {
        assert!(!game[key].is_null(), "a live game without {key}: {game}");
    }
    let (s, g, ply) = (
        game["series"].clone(),
        game["game"].clone(),
        game["ply"].as_u64().unwrap(),
    );
    wait_state(served.addr, "the live game's ply advancing", |st| {
        st["live"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["series"] == s && l["game"] == g && l["ply"].as_u64().unwrap() > ply)
            || st["done"].as_u64().unwrap() > 0
    });
    let later = wait_state(served.addr, "two SPRT pairs done", |st| {
        // null until the first pair is done
        st["sprt"]["pairs"].as_u64().unwrap_or(0) >= 2
    });
    let games: u64 = later["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["games"].as_u64().unwrap())
        .sum();
    assert!(games >= 8, "two bots' games in the standings: {later}");
    for row in later["standings"].as_array().unwrap() {
        for key in ["bot", "elo", "lower", "upper"] {
            assert!(!row[key].is_null(), "a standings row without {key}: {row}");
        }
    }

    // Only its own routes.
    for path in [
        "/nope",
        "/index.html",
        "/assets/nope.js",
        "/state/x",
        "/events/../x",
    ] {
        let r = served.get(path);
        assert_eq!(r.status, 404, "{path}: {r:?}");
    }

    let (code, rest) = served.interrupt();
    assert_eq!(code, Some(130), "{rest:#?}");
    let done = rows(&out.join("games.csv")).len();
    assert!(done >= 4, "{done} games");
}

/// The marker in the files an attacker would like to read.
const SECRET: &str = "SECRET-3f9c1a-do-not-serve";

#[test]
fn paths_and_parameters_never_return_a_file_from_the_disk() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = sprt_config(tmp.path(), 20);
    let mut text = std::fs::read_to_string(&cfg).unwrap();
    text.insert_str(0, &format!("# {SECRET}\n"));
    std::fs::write(&cfg, &text).unwrap();
    std::fs::write(tmp.path().join("config.toml"), &text).unwrap();
    std::fs::write(tmp.path().join("games.csv"), format!("{SECRET}\n")).unwrap();
    std::fs::create_dir(tmp.path().join("assets")).unwrap();
    std::fs::write(tmp.path().join("assets").join("live.js"), SECRET).unwrap();
    let out = tmp.path().join("out");
    let served = Served::run(tmp.path(), "t.toml", &out, &["127.0.0.1:0"]);
    // games.csv of the run itself: its header is what a leak would show.
    wait_state(served.addr, "a finished game", |s| {
        s["done"].as_u64().unwrap() > 0
    });
    let config_abs = cfg.display().to_string();
    let games_abs = out.join("games.csv").display().to_string();
    let tmp_abs = tmp.path().display().to_string();
    let paths: Vec<String> = vec![
        "/../config.toml".into(),
        "/../t.toml".into(),
        "/%2e%2e/games.csv".into(),
        "/%2e%2e/config.toml".into(),
        "/%2E%2E/%2E%2E/etc/passwd".into(),
        "/assets/..%2f..%2fgames.csv".into(),
        "/assets/..%2f..%2fconfig.toml".into(),
        "/assets/..%2fout%2fgames.csv".into(),
        "/assets/%2e%2e%2f%2e%2e%2fout%2fgames.csv".into(),
        "/assets/../config.toml".into(),
        "/assets/..\\..\\config.toml".into(),
        "/assets/%5c..%5cconfig.toml".into(),
        "/assets/%00../config.toml".into(),
        "/config.toml".into(),
        "/t.toml".into(),
        "/games.csv".into(),
        "/out/games.csv".into(),
        "/out/report.html".into(),
        "//etc/passwd".into(),
        "/etc/passwd".into(),
        "///etc/passwd".into(),
        "/assets//etc/passwd".into(),
        "/assets/%2fetc%2fpasswd".into(),
        format!("{config_abs}"),
        format!("/{games_abs}"),
        format!("{tmp_abs}/config.toml"),
        "/proc/self/environ".into(),
        "/proc/self/cmdline".into(),
        "/game?file=../config.toml&series=1&game=1".into(),
        "/game?file=..%2fconfig.toml&series=1&game=1".into(),
        "/game?file=../t.toml&series=1&game=1".into(),
        "/game?file=/etc/passwd&series=1&game=1".into(),
        format!("/game?file={games_abs}&series=1&game=1"),
        format!("/game?file={config_abs}&series=1&game=1"),
        "/game?file=../games.csv&series=1&game=1".into(),
        "/game?file=%2e%2e%2fgames.csv&series=1&game=1".into(),
        "/game?file=/proc/self/environ&series=1&game=1".into(),
        "/report?file=../config.toml".into(),
        "/report/../config.toml".into(),
        "/state?file=../config.toml".into(),
    ];
    let mut absolute_form = vec![format!(
        "GET http://{}/../config.toml HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        served.addr, served.addr
    )];
    for path in &paths {
        absolute_form.push(format!(
            "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            served.addr
        ));
    }
    let passwd = std::fs::read_to_string("/etc/passwd").unwrap_or_default();
    let passwd_line = passwd.lines().next().unwrap_or("root:x:0:0");
    for request in &absolute_form {
        let r = exchange(served.addr, request.as_bytes());
        let body = r.text();
        let what = request.lines().next().unwrap();
        assert!(!body.contains(SECRET), "{what}: a file's bytes: {body}");
        assert!(
            !body.contains("series,game,pair"),
            "{what}: games.csv's bytes: {body}"
        );
        assert!(!body.contains(passwd_line), "{what}: /etc/passwd: {body}");
        assert!(!body.contains("PATH="), "{what}: the environment: {body}");
        // A query on a route without parameters is that route; anything
        // else names no route of the server's.
        let own_route = what.starts_with("GET /report?") || what.starts_with("GET /state?");
        assert!(
            own_route || r.status >= 400,
            "{what}: status {} (only its own routes)",
            r.status
        );
    }
    // Still serving.
    assert_eq!(served.get("/state").status, 200);
    let (code, rest) = served.interrupt();
    assert_eq!(code, Some(130), "{rest:#?}");
}

#[test]
fn a_foreign_host_header_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, served) = Served::sprt(tmp.path(), &[]);
    let port = served.addr.port();
    for path in ["/", "/state", "/events", "/report", "/assets/live.js"] {
        for host in [
            "evil.example".to_string(),
            format!("evil.example:{port}"),
            format!("127.0.0.1.evil.example:{port}"),
            format!("localhost.evil.example:{port}"),
            format!("evil.example:{port}@127.0.0.1"),
            format!("127.0.0.1:{}", port.wrapping_add(1)),
            format!("10.0.0.1:{port}"),
        ] {
            let r = get_with_host(served.addr, path, &host);
            assert!(
                r.status == 421 || r.status == 403,
                "{path} with Host {host}: status {}: {}",
                r.status,
                r.text()
            );
            assert!(
                !r.text().contains("south-paw"),
                "{path} with Host {host} shows the run"
            );
        }
        for host in [
            format!("127.0.0.1:{port}"),
            format!("localhost:{port}"),
            format!("[::1]:{port}"),
        ] {
            if path == "/events" || path == "/report" || path == "/assets/live.js" {
                continue;
            }
            let r = get_with_host(served.addr, path, &host);
            assert_eq!(r.status, 200, "{path} with Host {host}: {}", r.text());
        }
    }
    // Two Host headers, one of them foreign: refused too (or a bad request).
    let r = exchange(
        served.addr,
        format!(
            "GET /state HTTP/1.1\r\nHost: {}\r\nHost: evil.example\r\nConnection: close\r\n\r\n",
            served.addr
        )
        .as_bytes(),
    );
    assert!(r.status >= 400, "two Host headers: {}", r.status);
    // No Host header at all (HTTP/1.0): not served.
    let r = exchange(served.addr, b"GET /state HTTP/1.0\r\n\r\n");
    assert!(r.status >= 400, "no Host header: {} {}", r.status, r.text());
    let (code, rest) = served.interrupt();
    assert_eq!(code, Some(130), "{rest:#?}");
}

/// The machine's own address on its network (not loopback), if it has one.
fn other_address() -> Option<std::net::IpAddr> {
    // Connecting a UDP socket sends nothing: it only picks the route.
    let socket = UdpSocket::bind("0.0.0.0:0").ok()?;
    socket.connect("192.0.2.1:9").ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_loopback() && !ip.is_unspecified()).then_some(ip)
}

#[test]
fn the_default_bind_is_loopback_only() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, served) = Served::sprt(tmp.path(), &[]);
    assert_eq!(
        served.addr.ip(),
        std::net::IpAddr::from([127, 0, 0, 1]),
        "{}",
        served.url_line
    );
    assert_eq!(served.get("/state").status, 200);
    match other_address() {
        Some(ip) => {
            let there = SocketAddr::new(ip, served.addr.port());
            let tried = TcpStream::connect_timeout(&there, Duration::from_secs(5));
            assert!(
                tried.is_err(),
                "the page is reachable at {there}, from the network"
            );
        }
        None => eprintln!("SKIPPED: no address but loopback to connect from"),
    }
    // Nor on every address of IPv6.
    let there = SocketAddr::new(
        std::net::IpAddr::from([0u16, 0, 0, 0, 0, 0, 0, 1]),
        served.addr.port(),
    );
    if let Ok(mut s) = TcpStream::connect_timeout(&there, Duration::from_secs(5)) {
        // Some other program may own that port on ::1; it must not be us.
        let _ = write!(
            s,
            "GET /state HTTP/1.1\r\nHost: [::1]:{}\r\nConnection: close\r\n\r\n",
            served.addr.port()
        );
        let mut text = String::new();
        let _ = s.read_to_string(&mut text);
        assert!(!text.contains("south-paw"), "served on [::1] too");
    }
    let (code, rest) = served.interrupt();
    assert_eq!(code, Some(130), "{rest:#?}");
}

#[test]
fn stalled_clients_do_not_stop_the_run_from_finishing() {
    // A fixed-length match of fast bots: 400 games, every ply sent to the
    // watchers, much more than the stalled sockets' buffers hold.
    let (tmp, cfg) = temp_config(
        "[board]\nholes = 8\n[tournament]\nfirst_to = 400\nmax_games = 400\nconcurrency = 2\n",
        &greedy_and_random(["g", "r"]),
    );
    let out = tmp.path().join("out");
    let served = Served::run(tmp.path(), cfg.to_str().unwrap(), &out, &["127.0.0.1:0"]);
    let addr = served.addr;
    let mut held = Vec::new();
    for _ in 0..50 {
        // Asks for the stream, then never reads a byte.
        let mut s = TcpStream::connect(addr).unwrap();
        write!(s, "GET /events HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
        held.push(s);
    }
    for _ in 0..50 {
        // Half a request, never finished.
        let mut s = TcpStream::connect(addr).unwrap();
        write!(s, "GET /state HTTP/1.1\r\nHo").unwrap();
        held.push(s);
    }
    // Others are still served meanwhile (unless the run is already over).
    if let Ok(mut s) = TcpStream::connect(addr) {
        s.set_read_timeout(Some(DEADLINE)).unwrap();
        if write!(
            s,
            "GET /state HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
        )
        .is_ok()
        {
            let mut raw = Vec::new();
            let _ = s.read_to_end(&mut raw);
            if let Some(r) = parse(&raw) {
                assert_eq!(r.status, 200, "{r:?}");
            }
        }
    }
    let (code, rest) = served.wait();
    assert_eq!(code, Some(0), "{rest:#?}");
    drop(held);
    let games = rows(&out.join("games.csv"));
    assert_eq!(games.len(), 400, "every game in games.csv");
    let mut keys: Vec<(u32, u32)> = games
        .iter()
        .map(|g| (g["series"].parse().unwrap(), g["game"].parse().unwrap()))
        .collect();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), 400, "no game twice");
    assert!(out.join("report.html").is_file());
}

/// A finished match's folder (no server).
fn finished_run(dir: &Path, games: u32) -> PathBuf {
    let cfg = config(
        dir,
        &format!("name = \"done\"\n[board]\nholes = 6\n[tournament]\nfirst_to = {games}\nmax_games = {games}\n"),
        &greedy_and_random(["g", "r"]),
    );
    let out = dir.join("done-run");
    assert_success(&run_arena(&cfg, &out));
    out
}

#[test]
fn serve_dir_of_a_finished_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let done = finished_run(tmp.path(), 10);
    let served = Served::start(tmp.path(), &["serve", done.to_str().unwrap()]);
    assert!(served.addr.ip().is_loopback(), "{}", served.url_line);
    let state = served.get("/state").json();
    assert_eq!(state["done"], 10, "{state}");
    assert_eq!(state["finished"], true, "{state}");
    assert_eq!(state["live"], serde_json::json!([]), "{state}");
    let page = served.get("/");
    assert_eq!(page.status, 200);
    assert!(
        page.text().contains("data-state=\"finished\""),
        "{}",
        page.text()
    );
    // Titled by the config's name ("done"), not the folder's ("done-run").
    assert!(
        page.text().contains("<title>En Dodoi live: done</title>"),
        "{}",
        page.text()
    );
    let report = served.get("/report");
    assert_eq!(report.status, 200);
    assert_safe_headers(&report, "/report");
    assert!(
        report.body == std::fs::read(done.join("report.html")).unwrap(),
        "/report is not the folder's report.html"
    );
    let game = served.get("/game?file=1&series=1&game=3");
    assert_eq!(game.status, 200, "{}", game.text());
    let game = game.json();
    let row = &rows(&done.join("games.csv"))[2];
    assert_eq!(row["game"], "3");
    assert_eq!(game["game"]["game"], 3, "{game}");
    let moves: Vec<u64> = row["moves"]
        .split(' ')
        .map(|m| m.parse().unwrap())
        .collect();
    assert_eq!(game["game"]["moves"], serde_json::json!(moves), "{game}");
    assert!(game["game"]["positions"].is_string(), "{game}");
    assert_eq!(served.get("/game?file=1&series=1&game=99").status, 404);
    // A game that is not a number, or a file the folder lacks: refused.
    for q in [
        "/game?file=1&series=1&game=x",
        "/game?file=7&series=1&game=1",
        "/game?file=1",
    ] {
        let r = served.get(q);
        assert!(r.status == 400 || r.status == 404, "{q}: {}", r.status);
    }
    let (code, rest) = served.interrupt();
    assert!(code == Some(0) || code == Some(130), "{code:?}: {rest:#?}");
}

#[test]
fn serve_dir_follows_a_folder_being_written() {
    let tmp = tempfile::tempdir().unwrap();
    let done = finished_run(tmp.path(), 12);
    let text = std::fs::read_to_string(done.join("games.csv")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 13);
    // A shard's folder as another arena is writing it: its config.toml, no
    // `finished` marker yet, and games.csv with the header and 4 games.
    let shard = tmp.path().join("shard");
    std::fs::create_dir(&shard).unwrap();
    std::fs::copy(done.join("config.toml"), shard.join("config.toml")).unwrap();
    let games = shard.join("games.csv");
    std::fs::write(&games, format!("{}\n", lines[..5].join("\n"))).unwrap();
    let served = Served::start(tmp.path(), &["serve", shard.to_str().unwrap()]);
    let state = wait_state(served.addr, "4 games", |s| s["done"] == 4);
    assert_eq!(state["finished"], false, "{state}");
    let append = |what: &str| {
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&games)
            .unwrap();
        f.write_all(what.as_bytes()).unwrap();
    };
    append(&format!("{}\n{}\n", lines[5], lines[6]));
    wait_state(served.addr, "6 games after two rows appended", |s| {
        s["done"] == 6
    });
    // A torn row (half written) is waited for, not counted...
    let (a, b) = lines[7].split_at(lines[7].len() / 2);
    append(a);
    // ...while it is torn, the rows after it cannot come: give the server
    // time to have looked (it polls every few hundred ms) by waiting for
    // a fresh response after a whole second has passed.
    let torn_at = Instant::now();
    loop {
        let s = get(served.addr, "/state").json();
        assert_eq!(s["done"], 6, "a torn row was counted: {s}");
        if torn_at.elapsed() > Duration::from_millis(1500) {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    append(&format!("{b}\n"));
    wait_state(served.addr, "the torn row once whole", |s| s["done"] == 7);
    // The standings are refitted (at most once a second): 7 games of two bots.
    wait_state(served.addr, "the standings of 7 games", |s| {
        s["standings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["games"].as_u64().unwrap())
            .sum::<u64>()
            == 14
    });
    append(&format!("{}\n", lines[8..].join("\n")));
    let state = wait_state(served.addr, "all 12 games", |s| s["done"] == 12);
    assert_eq!(state["finished"], false, "no marker yet: {state}");
    // The writing arena marks the folder finished: so does the page.
    std::fs::copy(done.join("finished"), shard.join("finished")).unwrap();
    wait_state(served.addr, "the folder marked finished", |s| {
        s["finished"] == true
    });
    // The games read so far open in the viewer.
    assert_eq!(served.get("/game?file=1&series=1&game=7").status, 200);
    let (code, rest) = served.interrupt();
    assert!(code == Some(0) || code == Some(130), "{code:?}: {rest:#?}");
}

#[test]
fn serve_dir_of_a_merged_folder() {
    let (tmp, cfg) = temp_config(
        "[board]\nholes = 6\n[tournament]\nfirst_to = 4\nmax_games = 4\n",
        &[
            ("g", arena_bot("greedy", 1)),
            ("r", arena_bot("random", 2)),
            ("f", arena_bot("first", 3)),
        ],
    );
    let shards = run_shards(tmp.path(), &cfg, 2);
    let merged = tmp.path().join("merged");
    let output = merge(&shards, &merged);
    assert_success(&output);
    let total = games(&merged).len();
    assert_eq!(total, 12, "three series of 4 games");
    let served = Served::start(tmp.path(), &["serve", merged.to_str().unwrap()]);
    let state = wait_state(served.addr, "the merged games", |s| s["done"] == 12);
    assert_eq!(state["finished"], true, "{state}");
    let mut bots: Vec<String> = state["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_str().unwrap().to_string())
        .collect();
    bots.sort();
    assert_eq!(bots, ["f", "g", "r"]);
    let report = served.get("/report");
    assert!(report.body == std::fs::read(merged.join("report.html")).unwrap());
    let (code, rest) = served.interrupt();
    assert!(code == Some(0) || code == Some(130), "{code:?}: {rest:#?}");
}

#[test]
fn serve_dir_without_games_csv_says_so_in_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let output = arena(&[&"serve", &tmp.path()]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = stderr_of(&output);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert_contains(&stderr, "games.csv");
}

/// `arena run CFG --serve ADDR` that must fail before any game: exit 2, one
/// line on stderr, no games.csv.
fn refused(addr: &str) -> String {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = sprt_config(tmp.path(), 0);
    let out = tmp.path().join("out");
    let output = arena(&[&"run", &cfg, &"--serve", &addr, &"--quiet", &"--out", &out]);
    let stderr = stderr_of(&output);
    assert_eq!(output.status.code(), Some(2), "--serve {addr}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "--serve {addr}: {stderr}");
    assert!(
        !out.join("games.csv").exists(),
        "--serve {addr}: a game was played"
    );
    stderr
}

#[test]
fn a_bad_serve_address_or_a_port_in_use_stops_before_any_game() {
    for bad in [
        "nowhere",
        "127.0.0.1",
        "127.0.0.1:99999",
        "300.1.1.1:80",
        ":80x",
    ] {
        let said = refused(bad);
        assert!(said.contains(bad), "{bad}: {said}");
        assert!(
            said.contains("HOST:PORT"),
            "{bad}: the fix is named: {said}"
        );
    }
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let said = refused(&addr);
    assert_contains(&said, &addr);
    assert!(said.to_lowercase().contains("in use"), "{said}");
}

#[test]
fn binding_beyond_loopback_warns_once() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, served) = Served::sprt(tmp.path(), &["0.0.0.0:0"]);
    assert_eq!(
        served.addr.ip(),
        std::net::IpAddr::from([0, 0, 0, 0]),
        "{}",
        served.url_line
    );
    let before = served.before.clone();
    // Reachable on the machine's other address, as it says.
    if let Some(ip) = other_address() {
        let r = get(SocketAddr::new(ip, served.addr.port()), "/state");
        assert_eq!(r.status, 200, "{r:?}");
    }
    let (_, rest) = served.interrupt();
    let warnings: Vec<&String> = before
        .iter()
        .chain(&rest)
        .filter(|l| l.contains("warning") && l.contains("not a loopback address"))
        .collect();
    assert_eq!(warnings.len(), 1, "one warning: {before:#?} {rest:#?}");
}

/// `n` greedy bots `g1`..`gn` with noise from 0 to 1 (a known order),
/// each waiting `think_ms` before a move.
fn league_field(n: usize, think_ms: u64) -> Vec<(String, Vec<String>)> {
    (1..=n)
        .map(|i| {
            let mut bot = slow_bot("greedy", i as u64, think_ms);
            let noise = (i - 1) as f64 / (n - 1) as f64;
            bot.extend(["--noise".to_string(), format!("{noise:.3}")]);
            (format!("g{i}"), bot)
        })
        .collect()
}

/// Writes `dir/t.toml`: a league of `rounds` rounds (none: until stopped)
/// over [`league_field`].
fn league_config(dir: &Path, n: usize, rounds: Option<u32>, think_ms: u64) -> PathBuf {
    let rounds = rounds.map_or_else(String::new, |r| format!("rounds = {r}\n"));
    let header = format!(
        "name = \"league\"\n[board]\nholes = 6\n[tournament]\nformat = \"league\"\n{rounds}concurrency = 2\nseed = 5\n[ratings]\nbootstrap = 50\n"
    );
    let field = league_field(n, think_ms);
    config(dir, &header, &field)
}

/// The names of a `/league` page's or table's rows, in order.
fn row_names(rows: &serde_json::Value) -> Vec<String> {
    rows.as_array()
        .unwrap_or_else(|| panic!("not a list of rows: {rows}"))
        .iter()
        .map(|r| r["bot"].as_str().unwrap().to_string())
        .collect()
}

/// A finished league of 9 bots (a bye each round) and a `roster.csv` that
/// retires two of them and adds one without games: `arena serve` shows
/// the league's table with the retired apart, in the order of
/// `standings.csv`, each bot's trend from `league.csv`'s ratings, a search
/// and pages (`/league`), and a bot's series (`/bot`) as `series.csv` and
/// `league.csv` have them; `report.html` has the same table, retired apart.
#[test]
fn serve_dir_of_a_league_shows_its_table_search_and_a_bots_series() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = league_config(tmp.path(), 9, Some(4), 0);
    let (out, _) = run_to(&cfg, tmp.path().join("league-run"));
    // A roster the games agree with (arena rate replays the league from
    // it): g8 and g9 left after the last round played, and a bot joins
    // at a round not yet played.
    let mut roster = String::from("bot,joined,retired\n");
    for i in 1..=9 {
        let retired = if i >= 8 { "4" } else { "" };
        roster.push_str(&format!("g{i},1,{retired}\n"));
    }
    roster.push_str("late,5,\n");
    std::fs::write(out.join("roster.csv"), roster).unwrap();
    // The report again, now with the roster (as a run that has one writes it).
    let rated = arena(&[&"rate", &out.join("games.csv").to_str().unwrap()]);
    assert_success(&rated);
    let standings: Vec<String> = rows(&out.join("standings.csv"))
        .iter()
        .map(|r| r["bot"].clone())
        .collect();
    let league_csv = rows(&out.join("league.csv"));
    let series_csv = rows(&out.join("series.csv"));

    let report = std::fs::read_to_string(out.join("report.html")).unwrap();
    let section = &report[report
        .find("<section id=\"league\">")
        .expect("a league section")..];
    let section = &section[..section.find("</section>").unwrap()];
    let retired_at = section
        .find("id=\"league-retired\"")
        .expect("a retired table");
    for bot in ["g8", "g9"] {
        let at = section.find(&format!("data-bot=\"{bot}\"")).unwrap();
        assert!(at > retired_at, "{bot} is in the retired table: {section}");
    }
    for bot in ["g1", "g7", "late"] {
        let at = section.find(&format!("data-bot=\"{bot}\"")).unwrap();
        assert!(at < retired_at, "{bot} is in the active table: {section}");
    }

    let served = Served::start(tmp.path(), &["serve", out.to_str().unwrap()]);
    let state = served.get("/state").json();
    let league = &state["league"];
    assert_eq!(league["rounds"], 4, "{league}");
    let active = row_names(&league["active"]["rows"]);
    let retired = row_names(&league["retired"]["rows"]);
    // The active bots in the order of standings.csv (the one without
    // games last); the retired ones apart, in that order too.
    let want: Vec<String> = standings
        .iter()
        .filter(|b| !["g8", "g9"].contains(&b.as_str()))
        .cloned()
        .collect();
    assert_eq!(
        want.last().map(String::as_str),
        Some("late"),
        "{standings:?}"
    );
    assert_eq!(active, want, "{league}");
    let want_retired: Vec<String> = standings
        .iter()
        .filter(|b| ["g8", "g9"].contains(&b.as_str()))
        .cloned()
        .collect();
    assert_eq!(retired, want_retired, "{league}");
    assert_eq!(league["active"]["total"], 8);
    assert_eq!(league["retired"]["total"], 2);
    for (table, n) in [("active", 8), ("retired", 2)] {
        let ranks: Vec<u64> = league[table]["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["rank"].as_u64().unwrap())
            .collect();
        assert_eq!(ranks, (1..=n).collect::<Vec<u64>>(), "{table}");
    }
    let g9 = &league["retired"]["rows"][retired.iter().position(|b| b == "g9").unwrap()];
    assert_eq!(g9["retired"], 4, "{g9}");
    // A bot's trend: its latest pairing rating less the one 5 rounds
    // before (here its first), from league.csv.
    for row in league["active"]["rows"].as_array().unwrap() {
        let bot = row["bot"].as_str().unwrap();
        let elos: Vec<f64> = league_csv
            .iter()
            .filter_map(|r| {
                if r["south"] == bot {
                    r["south_elo"].parse().ok()
                } else if r["north"] == bot {
                    r["north_elo"].parse().ok()
                } else {
                    None
                }
            })
            .collect();
        assert_eq!(row["spark"].as_array().unwrap().len(), elos.len(), "{row}");
        match elos.len() {
            0 | 1 => assert!(row["trend"].is_null(), "{row}"),
            n => {
                let from = n.saturating_sub(6);
                let trend = elos[n - 1] - elos[from];
                let got = row["trend"].as_f64().unwrap();
                assert!(
                    (got - trend).abs() < 0.05,
                    "{bot}: trend {got}, league.csv {trend}"
                );
            }
        }
    }
    // The page: the league's table instead of the every-bot standings.
    assert_eq!(state["sections"]["standings"], "", "{state}");
    assert_eq!(state["sections"]["cross"], "", "{state}");
    let page = served.get("/").text();
    assert_contains(&page, "<section id=\"league\">");
    assert_contains(&page, "id=\"league-find\"");

    // Search, any case, and pages.
    let found = served.get("/league?find=G1").json();
    assert_eq!(row_names(&found["rows"]), ["g1"], "{found}");
    let with_g: Vec<String> = active.iter().filter(|b| b.contains('g')).cloned().collect();
    let all = served.get("/league?find=g").json();
    assert_eq!(all["matched"], with_g.len(), "{all}");
    assert_eq!(all["total"], 8, "{all}");
    let rest = served.get("/league?find=g&offset=5").json();
    assert_eq!(row_names(&rest["rows"]), with_g[5..].to_vec(), "{rest}");
    let retired_page = served.get("/league?table=retired&find=9").json();
    assert_eq!(row_names(&retired_page["rows"]), ["g9"], "{retired_page}");
    assert_eq!(served.get("/league?table=bogus").status, 400);

    // A bot's series, from its side, as series.csv and league.csv have them.
    let bot = "g3";
    let record = served.get(&format!("/bot?name={bot}")).json();
    let mine: Vec<&std::collections::HashMap<String, String>> = series_csv
        .iter()
        .filter(|r| r["bot_a"] == bot || r["bot_b"] == bot)
        .collect();
    assert_eq!(record["series_total"], mine.len(), "{record}");
    let listed = record["series"].as_array().unwrap();
    assert_eq!(listed.len(), mine.len(), "{record}");
    for s in listed {
        let number = s["series"].as_u64().unwrap().to_string();
        let row = mine.iter().find(|r| r["series"] == number).unwrap();
        let (them, w, l) = if row["bot_a"] == bot {
            (&row["bot_b"], &row["wins_a"], &row["wins_b"])
        } else {
            (&row["bot_a"], &row["wins_b"], &row["wins_a"])
        };
        assert_eq!(s["opponent"].as_str(), Some(them.as_str()), "{s}");
        assert_eq!(s["wins"].to_string(), *w, "{s}");
        assert_eq!(s["losses"].to_string(), *l, "{s}");
        assert_eq!(s["draws"].to_string(), row["draws"], "{s}");
        let round = league_csv
            .iter()
            .find(|r| r["series"] == number)
            .map(|r| r["round"].clone());
        assert_eq!(Some(s["round"].to_string()), round, "{s}");
    }
    let numbers: Vec<u64> = listed
        .iter()
        .map(|s| s["series"].as_u64().unwrap())
        .collect();
    assert!(
        numbers.windows(2).all(|w| w[0] > w[1]),
        "latest first: {numbers:?}"
    );
    assert_eq!(served.get("/bot?name=nobody").status, 404);
    let (code, rest) = served.interrupt();
    assert!(code == Some(0) || code == Some(130), "{code:?}: {rest:#?}");
}

/// A league that goes on until stopped, with `--serve`: `/state` has its
/// table, whose rounds grow as it plays; a bot removed from the config
/// while it plays (an organiser's atomic save) retires, and the page shows
/// it retired without a reload.
#[test]
fn run_serve_of_a_league_follows_its_rounds_and_its_roster() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = league_config(tmp.path(), 6, None, 2);
    let out = tmp.path().join("live-league");
    let served = Served::run(tmp.path(), cfg.to_str().unwrap(), &out, &["127.0.0.1:0"]);
    let state = wait_state(served.addr, "a league table after round 2 is paired", |s| {
        s["league"]["rounds"].as_u64().unwrap_or(0) >= 2
    });
    assert_eq!(state["league"]["active"]["total"], 6, "{state}");
    assert_eq!(state["league"]["retired"]["total"], 0, "{state}");
    // The config without g4's table, saved atomically as editors do.
    let text = std::fs::read_to_string(&cfg).unwrap();
    let kept: Vec<&str> = text
        .split("\n[[bot]]\n")
        .filter(|table| !table.starts_with("name = \"g4\""))
        .collect();
    assert_eq!(kept.len(), 6, "the header and five bots: {text}");
    let new = tmp.path().join("t.toml.new");
    std::fs::write(&new, kept.join("\n[[bot]]\n")).unwrap();
    std::fs::rename(&new, &cfg).unwrap();
    let state = wait_state(served.addr, "g4 retired on the page", |s| {
        s["league"]["retired"]["total"] == 1
    });
    assert_eq!(
        row_names(&state["league"]["retired"]["rows"]),
        ["g4"],
        "{state}"
    );
    assert_eq!(state["league"]["active"]["total"], 5, "{state}");
    let record = served.get("/bot?name=g4").json();
    assert_eq!(record["retired"], true, "{record}");
    let (code, rest) = served.interrupt();
    assert!(code == Some(0) || code == Some(130), "{code:?}: {rest:#?}");
}

/// Reads `/events` until an event whose name and JSON data satisfy `pred`;
/// that data.
fn event_matching(
    addr: SocketAddr,
    what: &str,
    pred: impl Fn(&str, &serde_json::Value) -> bool,
) -> serde_json::Value {
    let mut stream = open_events(addr);
    let (mut raw, mut seen) = (Vec::new(), 0);
    loop {
        let Some(response) = read_events(&mut stream, &mut raw, what) else {
            continue;
        };
        let body = response.text().replace("\r\n", "\n");
        let events: Vec<&str> = body.split("\n\n").collect();
        // The last part is an event still coming (or empty).
        for event in &events[seen..events.len() - 1] {
            let (name, data) = event_fields(event);
            let json: serde_json::Value = serde_json::from_str(&data.concat()).unwrap_or_default();
            if pred(name, &json) {
                let _ = stream.shutdown(Shutdown::Both);
                return json;
            }
        }
        seen = events.len() - 1;
    }
}

#[test]
fn tune_serve_shows_each_parameters_course_as_iterations_end() {
    let tmp = tempfile::tempdir().unwrap();
    // A slow random bot whose noise is tuned: 12 iterations, one at a time.
    let header = "[board]\nholes = 4\nseeds = 3\n[tournament]\nconcurrency = 1\nseed = 1\n\
        [tune]\nbot = \"r\"\npairs = 12\n\
        [[tune.param]]\nname = \"noise\"\nstart = 0.5\nmin = 0\nmax = 1\nc_end = 0.1\nr_end = 0.5\n";
    config(tmp.path(), header, &[("r", slow_bot("random", 1, 20))]);
    let mut served = Served::start(
        tmp.path(),
        &["tune", "t.toml", "--out", "run", "--serve", "127.0.0.1:0"],
    );
    // The page's stream brings the tuning's section as iterations end.
    let tune = |s: &serde_json::Value| s["sections"]["tune"].as_str().unwrap_or("").to_string();
    let played = |section: &str| -> u64 {
        let Some(at) = section.find("</code>: ") else {
            return 0;
        };
        let rest = &section[at + "</code>: ".len()..];
        rest.split(' ').next().unwrap().parse().unwrap()
    };
    let summary = event_matching(served.addr, "a tuning's section", |name, data| {
        name == "summary" && played(&tune(data)) >= 2
    });
    let section = tune(&summary);
    assert_contains(&section, "of 12 iterations played so far");
    assert!(section.contains("<code>noise</code>") && section.contains("<svg"));
    // A page opened now shows it whole, and /state holds it.
    let page = served.get("/").text();
    assert!(page.contains("id=\"part-tune\"") && page.contains("id=\"tuning\""));
    assert!(page.contains("href=\"#tuning\""));
    let state = served.get("/state").json();
    assert!(played(&tune(&state)) >= played(&section), "{state}");
    // The tuning ends as without --serve: the values, report.html.
    let status = served.child.wait().unwrap();
    assert!(status.success());
    let report = std::fs::read_to_string(tmp.path().join("run/report.html")).unwrap();
    assert!(report.contains("12 of 12 iterations played"));
}
