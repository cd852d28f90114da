//! The live view's HTTP server: axum on its own thread and current-thread
//! runtime, so it never takes a game's thread. It prints nothing (the
//! command prints the address).
//!
//! Routes, and only these (anything else is 404; no file is ever read from
//! the disk by a path from the request):
//! - `GET /`: the live page (`html::live_page`), whole as the state is now;
//! - `GET /events`: server-sent events: `snapshot` (the whole state), then
//!   `summary`, `board`, `ended`, `gone` and `finished` ([`Update`]);
//! - `GET /state`: the snapshot as JSON;
//! - `GET /game?file=F&series=S&game=G`: a finished game for the viewer
//!   (file from 1);
//! - `GET /report`: the report: for a finished run, its `report.html` (the
//!   one file the server may read, named when it starts); before, the
//!   report of the games so far;
//! - `GET /league?table=T&find=F&offset=N`: a league's table (`active` or
//!   `retired`), the bots whose names hold `F`, a page of
//!   [`crate::html::LEAGUE_TOP`] from the `N`-th (404 if not a league);
//! - `GET /bot?name=B`: a league's bot `B`: its row and its series (404 if
//!   not a league or no such bot).
//!
//! **It never slows the games.** Updates go to the clients through a
//! `tokio::sync::broadcast` channel of [`CLIENT_QUEUE`] updates: a client
//! that falls behind gets a fresh `snapshot` instead of what it missed, and
//! a client whose socket takes no bytes for [`STALL`] is dropped. The game
//! threads only hand events over (the watch feed with `try_send`).
//!
//! **Safe by default.** Bound to loopback, it answers only requests whose
//! `Host` is its own address (`127.0.0.1`, `localhost` or `[::1]` with its
//! port): a page of another site that a DNS name rebinds to 127.0.0.1 is
//! refused (421). At most [`MAX_CONNECTIONS`] connections are open, and
//! [`MAX_PER_ADDRESS`] from one client address; over it a connection gets
//! 503 and is closed; a connection's send buffer is [`SEND_BUFFER`] bytes,
//! so a client that reads nothing is found out soon; one that has not sent a request's
//! head whole within [`HEAD_TIMEOUT`] is closed too. Every response has
//! `Cache-Control: no-store`, `X-Content-Type-Options: nosniff`, a
//! `Content-Security-Policy` that lets the page load nothing from
//! elsewhere, and `Referrer-Policy: no-referrer`.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener as StdListener};
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::extract::{Query, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt as _, ReadBuf};
use tokio::sync::{broadcast, mpsc, OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;

use super::state::{LiveState, Update};
use crate::html::GameRow;
use crate::referee::{Watch, WatchEvent};
use crate::runner::Event;

/// Updates a client may be behind before it gets a snapshot instead.
pub const CLIENT_QUEUE: usize = 64;

/// Watch-feed events held for the server; past it the games drop them.
pub const WATCH_QUEUE: usize = 4096;

/// The most connections open at once; more get 503.
pub const MAX_CONNECTIONS: usize = 1000;

/// The most connections open at once from one client address; more get
/// 503, so that one client cannot hold every place.
pub const MAX_PER_ADDRESS: usize = 250;

/// The send buffer asked for each connection, bytes: small, so that a
/// client that reads nothing fills it within seconds of events and is
/// dropped after [`STALL`], instead of after the minutes that the kernel's
/// default buffer (grown to megabytes) would take.
pub const SEND_BUFFER: usize = 64 * 1024;

/// How long a client's socket may take no bytes before it is dropped.
pub const STALL: Duration = Duration::from_secs(10);

/// How often the boards and the standings are sent (at most).
const TICK: Duration = Duration::from_millis(100);

/// How long a client may take to send a request's head (its line and
/// headers); a connection that sends less is closed.
pub const HEAD_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a stopping server waits for its clients to read the end.
const GOODBYE: Duration = Duration::from_secs(2);

/// Why the live view cannot be served.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The address is not `HOST:PORT`.
    #[error("'{0}' is not an address HOST:PORT: give one such as 127.0.0.1:8080, or 127.0.0.1:0 for a free port")]
    BadAddress(String),
    /// The address is in use by another program.
    #[error("{0} is in use by another program: choose another port, or port 0 for a free one")]
    InUse(SocketAddr),
    /// The address cannot be bound for another reason.
    #[error("cannot listen on {0}: {1}: choose another address, such as 127.0.0.1:0")]
    Bind(SocketAddr, io::Error),
    /// The server's thread or runtime could not start.
    #[error("cannot start the live view's server")]
    Start(#[source] io::Error),
}

/// The default address: loopback, a free port.
pub const DEFAULT_ADDR: SocketAddr = SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 0);

/// `HOST:PORT` as a socket address: an IP address (IPv6 in brackets) or
/// `localhost`, and a port.
///
/// # Errors
/// [`ServeError::BadAddress`] for anything else.
pub fn parse_addr(text: &str) -> Result<SocketAddr, ServeError> {
    let bad = || ServeError::BadAddress(text.to_string());
    if let Ok(addr) = text.parse::<SocketAddr>() {
        return Ok(addr);
    }
    let (host, port) = text.rsplit_once(':').ok_or_else(bad)?;
    let port: u16 = port.parse().map_err(|_| bad())?;
    if host.eq_ignore_ascii_case("localhost") {
        return Ok(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port));
    }
    Err(bad())
}

/// Binds `addr` now, so a bad address is known before anything else is
/// done; [`Server::start`] serves on it.
///
/// # Errors
/// The address is in use or cannot be bound.
pub fn bind(addr: SocketAddr) -> Result<StdListener, ServeError> {
    let listener = StdListener::bind(addr).map_err(|e| match e.kind() {
        io::ErrorKind::AddrInUse => ServeError::InUse(addr),
        _ => ServeError::Bind(addr, e),
    })?;
    listener
        .set_nonblocking(true)
        .map_err(|e| ServeError::Bind(addr, e))?;
    Ok(listener)
}

/// What the server is fed besides the watch feed.
enum Input {
    Event(Box<Event>),
    Row(Box<GameRow>),
    Bound(u64),
    Absent(Vec<usize>),
    Tune(String),
    Finish,
}

/// A live view being served: feed it the run's events; stop it at the end.
pub struct Server {
    addr: SocketAddr,
    inputs: mpsc::UnboundedSender<Input>,
    watch: Watch,
    stop: CancellationToken,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// What the handlers share.
#[derive(Clone)]
struct App {
    state: Arc<Mutex<LiveState>>,
    updates: broadcast::Sender<Update>,
    /// The `Host` values accepted; empty accepts any (not on loopback).
    hosts: Arc<Vec<String>>,
    /// The finished run's `report.html`.
    report: Option<Arc<PathBuf>>,
}

impl App {
    fn state(&self) -> MutexGuard<'_, LiveState> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Server {
    /// Serves the live view of `state` on `listener` (from [`bind`]) on a
    /// thread of its own; `report` is the run's `report.html`, served by
    /// `/report` once the run is finished. What `state` holds (a resumed
    /// run's games, a folder read whole) is there for the first request.
    ///
    /// # Errors
    /// The thread or its runtime cannot start.
    pub fn start(
        listener: StdListener,
        state: LiveState,
        report: Option<PathBuf>,
    ) -> Result<Server, ServeError> {
        let addr = listener.local_addr().map_err(ServeError::Start)?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(ServeError::Start)?;
        let (inputs, input_rx) = mpsc::unbounded_channel();
        let (watch, watch_rx) = Watch::channel(WATCH_QUEUE);
        let stop = CancellationToken::new();
        let state = Arc::new(Mutex::new(state));
        let (updates, _) = broadcast::channel(CLIENT_QUEUE);
        let app = App {
            state,
            updates,
            hosts: Arc::new(allowed_hosts(addr)),
            report: report.map(Arc::new),
        };
        let stopping = stop.clone();
        let thread = std::thread::Builder::new()
            .name("live-view".into())
            .spawn(move || runtime.block_on(serve(listener, app, input_rx, watch_rx, stopping)))
            .map_err(ServeError::Start)?;
        Ok(Server {
            addr,
            inputs,
            watch,
            stop,
            thread: Some(thread),
        })
    }

    /// The address served.
    #[must_use]
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The page's address, `http://HOST:PORT/`.
    #[must_use]
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// The feed for the runner's games ([`crate::runner::RunOptions::watch`]).
    #[must_use]
    pub fn watch(&self) -> Watch {
        self.watch.clone()
    }

    fn send(&self, input: Input) -> bool {
        self.inputs.send(input).is_ok()
    }

    /// A runner event; `false` if the server is gone.
    pub fn event(&self, event: &Event) -> bool {
        self.send(Input::Event(Box::new(event.clone())))
    }

    /// A finished game read from a file (its `file` from 0); `false` if the
    /// server is gone.
    pub fn row(&self, row: GameRow) -> bool {
        self.send(Input::Row(Box::new(row)))
    }

    /// The most games the run plays, now known better; `false` if the
    /// server is gone.
    pub fn bound(&self, bound: u64) -> bool {
        self.send(Input::Bound(bound))
    }

    /// The bots (indices into the config's) that did not start, known
    /// after the start-up check: a knockout or Swiss pairs without them;
    /// `false` if the server is gone.
    pub fn absent(&self, absent: Vec<usize>) -> bool {
        self.send(Input::Absent(absent))
    }

    /// A tuning's section as it is now ([`crate::html::tune_section`]), for
    /// `arena tune --serve`; `false` if the server is gone.
    pub fn tune(&self, section: String) -> bool {
        self.send(Input::Tune(section))
    }

    /// The run is over: the page shows it finished (it goes on serving).
    pub fn finish(&self) -> bool {
        self.send(Input::Finish)
    }

    /// Whether the server's thread has ended (it failed).
    #[must_use]
    pub fn is_gone(&self) -> bool {
        self.inputs.is_closed()
    }

    /// Stops serving: every event stream is ended (after `finished`, if
    /// sent), clients get a moment to read it, and the thread is joined.
    pub fn stop(mut self) {
        self.stop.cancel();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

/// The `Host` values a server on `addr` accepts: on loopback its own
/// address under each loopback name; elsewhere any (empty).
fn allowed_hosts(addr: SocketAddr) -> Vec<String> {
    if !addr.ip().is_loopback() {
        return Vec::new();
    }
    let port = addr.port();
    let mut hosts = vec![
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
        addr.to_string(),
    ];
    hosts.dedup();
    hosts
}

/// The server's thread: the pump from the feeds into the state and the
/// clients, and the HTTP server, until `stop`.
async fn serve(
    listener: StdListener,
    app: App,
    inputs: mpsc::UnboundedReceiver<Input>,
    watch: mpsc::Receiver<WatchEvent>,
    stop: CancellationToken,
) {
    let Ok(listener) = tokio::net::TcpListener::from_std(listener) else {
        return;
    };
    let pump = tokio::spawn(pump(app.clone(), inputs, watch, stop.clone()));
    let router = Router::new()
        .route("/", get(page))
        .route("/state", get(state))
        .route("/events", get(events))
        .route("/game", get(game))
        .route("/report", get(report))
        .route("/league", get(league))
        .route("/bot", get(bot))
        .fallback(not_found)
        .layer(axum::middleware::from_fn_with_state(app.clone(), guard))
        .with_state(app);
    let mut capped = Capped {
        inner: listener,
        permits: Arc::new(Semaphore::new(MAX_CONNECTIONS)),
        per_address: Arc::default(),
    };
    // axum's own `serve` sets no timer, so a request head sent half would
    // hold its connection forever: hyper's connections are built here,
    // with a timer, so a head must arrive whole within HEAD_TIMEOUT.
    use tower::ServiceExt as _;
    let service = hyper_util::service::TowerToHyperService::new(
        router.map_request(|r: Request<hyper::body::Incoming>| r.map(axum::body::Body::new)),
    );
    let connections = tokio_util::task::TaskTracker::new();
    loop {
        let conn = tokio::select! {
            (conn, _) = capped.accept() => conn,
            () = stop.cancelled() => break,
        };
        let (service, stop) = (service.clone(), stop.clone());
        connections.spawn(async move {
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(HEAD_TIMEOUT);
            let served = http.serve_connection(hyper_util::rt::TokioIo::new(conn), service);
            tokio::pin!(served);
            tokio::select! {
                _ = served.as_mut() => {}
                () = stop.cancelled() => {
                    served.as_mut().graceful_shutdown();
                    let _ = served.await;
                }
            }
        });
    }
    // Stopping: the streams end with `finished`; wait for the clients to
    // read it, at most GOODBYE.
    connections.close();
    let _ = tokio::time::timeout(GOODBYE, connections.wait()).await;
    pump.abort();
}

/// Feeds the state from the runner's events (each handled at once) and the
/// watch feed, and sends the updates; boards and the refit every [`TICK`].
async fn pump(
    app: App,
    mut inputs: mpsc::UnboundedReceiver<Input>,
    mut watch: mpsc::Receiver<WatchEvent>,
    stop: CancellationToken,
) {
    let mut tick = tokio::time::interval(TICK);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut watching = true;
    loop {
        // Biased, the run's events first: a stop that comes right after
        // `finish` must not win over the queued Finish (a random pick lost
        // the page its `finished` in about one run of three).
        tokio::select! {
            biased;
            input = inputs.recv() => {
                let Some(input) = input else { return };
                let mut state = app.state();
                let updates = match input {
                    Input::Event(e) => state.event(&e).into_iter().collect(),
                    Input::Row(row) => vec![state.add_row(*row)],
                    Input::Bound(bound) => {
                        state.set_bound(bound);
                        Vec::new()
                    }
                    Input::Absent(absent) => {
                        state.set_absent(&absent);
                        Vec::new()
                    }
                    Input::Tune(section) => vec![state.set_tune(section, Instant::now())],
                    Input::Finish => state.finish(Instant::now()),
                };
                for u in updates {
                    let _ = app.updates.send(u);
                }
            }
            () = stop.cancelled() => return,
            event = watch.recv(), if watching => {
                match event {
                    Some(event) => {
                        let mut state = app.state();
                        if let Some(u) = state.watch(event) {
                            let _ = app.updates.send(u);
                        }
                    }
                    None => watching = false,
                }
            }
            _ = tick.tick() => {
                let mut state = app.state();
                let now = Instant::now();
                for u in state.boards_changed().into_iter().chain(state.tick(now)) {
                    let _ = app.updates.send(u);
                }
            }
        }
    }
}

/// Refuses a request with more than one `Host` header (400), or whose
/// `Host` is not the server's own (on loopback: 421), and puts the safety
/// headers on every response.
async fn guard(State(app): State<App>, request: Request, next: Next) -> Response {
    // A request target in absolute form names the host itself (RFC 9112,
    // 3.2.2): then that is the host, and it must be ours too.
    let host = match request.uri().authority() {
        Some(authority) => authority.as_str(),
        None => request
            .headers()
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .unwrap_or(""),
    };
    // More than one Host is a bad request (RFC 9112, 3.2), whatever they say.
    let hosts = request.headers().get_all(header::HOST).iter().count();
    let mut response = if hosts > 1 {
        (StatusCode::BAD_REQUEST, "a request has one Host header\n").into_response()
    } else if !app.hosts.is_empty() && !app.hosts.iter().any(|h| h == host) {
        (
            StatusCode::MISDIRECTED_REQUEST,
            "this server answers only requests for its own address (Host header)\n",
        )
            .into_response()
    } else {
        next.run(request).await
    };
    let headers = response.headers_mut();
    for (name, value) in [
        (header::CACHE_CONTROL, "no-store"),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "no-referrer"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (
            header::CONTENT_SECURITY_POLICY,
            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        ),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

async fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "not found\n").into_response()
}

async fn page(State(app): State<App>) -> Html<String> {
    Html(app.state().page(Instant::now()))
}

fn json(body: String) -> Response {
    (
        [(header::CONTENT_TYPE, "application/json; charset=utf-8")],
        body,
    )
        .into_response()
}

async fn state(State(app): State<App>) -> Response {
    json(app.state().snapshot(Instant::now()))
}

/// The game `/game` names.
#[derive(serde::Deserialize)]
struct GameQuery {
    file: usize,
    series: u64,
    game: u32,
}

async fn game(State(app): State<App>, Query(q): Query<GameQuery>) -> Response {
    match app.state().game(q.file, q.series, q.game) {
        Some(body) => json(body),
        None => (
            StatusCode::NOT_FOUND,
            "no such game in the viewer (see arena replay)\n",
        )
            .into_response(),
    }
}

/// What `/league` asks.
#[derive(serde::Deserialize)]
struct LeagueQuery {
    #[serde(default)]
    table: String,
    #[serde(default)]
    find: String,
    #[serde(default)]
    offset: usize,
}

async fn league(State(app): State<App>, Query(q): Query<LeagueQuery>) -> Response {
    if !matches!(q.table.as_str(), "" | "active" | "retired") {
        return (
            StatusCode::BAD_REQUEST,
            "table is active (the default) or retired\n",
        )
            .into_response();
    }
    match app.state().league_page(&q.table, &q.find, q.offset) {
        Some(body) => json(body),
        None => (StatusCode::NOT_FOUND, "this run is not a league\n").into_response(),
    }
}

/// What `/bot` asks.
#[derive(serde::Deserialize)]
struct BotQuery {
    name: String,
}

async fn bot(State(app): State<App>, Query(q): Query<BotQuery>) -> Response {
    match app.state().bot_record(&q.name) {
        Some(body) => json(body),
        None => (
            StatusCode::NOT_FOUND,
            "no such bot in the league's table (or this run is not a league)\n",
        )
            .into_response(),
    }
}

async fn report(State(app): State<App>) -> Response {
    let (finished, live) = {
        let state = app.state();
        let finished = state.is_finished();
        (finished, (!finished).then(|| state.report()))
    };
    if let (true, Some(path)) = (finished, &app.report) {
        let path = path.clone();
        if let Ok(Ok(bytes)) = tokio::task::spawn_blocking(move || std::fs::read(&*path)).await {
            return ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], bytes).into_response();
        }
    }
    Html(live.unwrap_or_else(|| app.state().report())).into_response()
}

/// `/events`: a client's stream of [`client_updates`], as server-sent
/// events, with a keep-alive comment now and then.
async fn events(State(app): State<App>) -> Response {
    use futures::StreamExt as _;
    let stream = client_updates(&app).map(|u| Ok::<_, std::convert::Infallible>(sse(&u)));
    Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response()
}

/// A client's updates: the snapshot, then each update; a fresh snapshot
/// for a client that fell more than [`CLIENT_QUEUE`] updates behind,
/// instead of what it missed. It ends after `finished`.
fn client_updates(app: &App) -> impl futures::Stream<Item = Update> + Send + 'static {
    let (first, rx, over) = {
        let state = app.state();
        // Subscribed under the lock: no update falls between the two.
        let rx = app.updates.subscribe();
        (
            state.snapshot_update(Instant::now()),
            rx,
            state.is_finished(),
        )
    };
    let mut queue = std::collections::VecDeque::from([first]);
    if over {
        queue.push_back(Update {
            event: "finished",
            data: "{}".into(),
        });
    }
    futures::stream::unfold(
        (app.clone(), rx, queue, false),
        |(app, mut rx, mut queue, ended)| async move {
            if ended {
                return None;
            }
            let u = match queue.pop_front() {
                Some(u) => u,
                None => match rx.recv().await {
                    Ok(u) => u,
                    // Behind: the whole state instead of what it missed.
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        app.state().snapshot_update(Instant::now())
                    }
                    Err(broadcast::error::RecvError::Closed) => return None,
                },
            };
            let last = u.event == "finished";
            Some((u, (app, rx, queue, last)))
        },
    )
}

fn sse(u: &Update) -> SseEvent {
    SseEvent::default().event(u.event).data(&*u.data)
}

/// The listener with a cap on open connections, in all and per address.
struct Capped {
    inner: tokio::net::TcpListener,
    permits: Arc<Semaphore>,
    per_address: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

/// A connection's place among those of its client address, given back
/// when the connection is dropped.
struct AddressPlace {
    ip: IpAddr,
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

impl AddressPlace {
    /// A place for `ip`, unless it has [`MAX_PER_ADDRESS`] already.
    fn take(open: &Arc<Mutex<HashMap<IpAddr, usize>>>, ip: IpAddr) -> Option<AddressPlace> {
        let mut counts = open
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let n = counts.entry(ip).or_insert(0);
        if *n >= MAX_PER_ADDRESS {
            return None;
        }
        *n += 1;
        Some(AddressPlace {
            ip,
            open: Arc::clone(open),
        })
    }
}

impl Drop for AddressPlace {
    fn drop(&mut self) {
        let mut counts = self
            .open
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(n) = counts.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                counts.remove(&self.ip);
            }
        }
    }
}

impl Capped {
    async fn accept(&mut self) -> (Conn, SocketAddr) {
        loop {
            let (stream, addr) = match self.inner.accept().await {
                Ok(accepted) => accepted,
                Err(_) => {
                    // Out of file descriptors, say: wait, and try again.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            let _ = stream.set_nodelay(true);
            let _ = socket2::SockRef::from(&stream).set_send_buffer_size(SEND_BUFFER);
            let place = AddressPlace::take(&self.per_address, addr.ip());
            match (self.permits.clone().try_acquire_owned(), place) {
                (Ok(permit), Some(place)) => {
                    return (
                        Conn {
                            stream,
                            _permit: permit,
                            _place: place,
                            stalled: None,
                        },
                        addr,
                    )
                }
                _ => {
                    tokio::spawn(refuse(stream));
                }
            }
        }
    }
}

/// Answers 503 to a connection over the cap, and closes it.
async fn refuse(mut stream: tokio::net::TcpStream) {
    let answer = b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain\r\ncontent-length: 18\r\nconnection: close\r\n\r\ntoo many clients.\n";
    let _ = tokio::time::timeout(Duration::from_secs(1), stream.write_all(answer)).await;
}

/// A client's connection: it holds a place under the cap, and fails a
/// write that has waited [`STALL`] for the client to read.
struct Conn {
    stream: tokio::net::TcpStream,
    _permit: OwnedSemaphorePermit,
    _place: AddressPlace,
    stalled: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl AsyncRead for Conn {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Conn {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        match Pin::new(&mut this.stream).poll_write(cx, buf) {
            Poll::Ready(r) => {
                this.stalled = None;
                Poll::Ready(r)
            }
            Poll::Pending => {
                let timer = this
                    .stalled
                    .get_or_insert_with(|| Box::pin(tokio::time::sleep(STALL)));
                match timer.as_mut().poll(cx) {
                    Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        "the client reads nothing",
                    ))),
                    Poll::Pending => Poll::Pending,
                }
            }
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::Setup;
    use futures::StreamExt as _;

    fn app() -> App {
        let setup = Setup {
            title: "t".into(),
            bots: vec!["a".into(), "b".into()],
            follows: true,
            ..Setup::default()
        };
        let (updates, _) = broadcast::channel(CLIENT_QUEUE);
        App {
            state: Arc::new(Mutex::new(LiveState::new(setup, Instant::now()))),
            updates,
            hosts: Arc::new(allowed_hosts(DEFAULT_ADDR)),
            report: None,
        }
    }

    fn board(n: usize) -> Update {
        Update {
            event: "board",
            data: format!("{{\"n\":{n}}}").into(),
        }
    }

    #[tokio::test]
    async fn a_client_gets_the_snapshot_first_then_the_updates_in_order() {
        let app = app();
        let mut client = Box::pin(client_updates(&app));
        for n in 0..3 {
            app.updates.send(board(n)).unwrap();
        }
        assert_eq!(client.next().await.unwrap().event, "snapshot");
        for n in 0..3 {
            assert_eq!(client.next().await.unwrap(), board(n));
        }
        app.updates
            .send(Update {
                event: "finished",
                data: "{}".into(),
            })
            .unwrap();
        assert_eq!(client.next().await.unwrap().event, "finished");
        assert_eq!(client.next().await, None, "the stream ends after finished");
    }

    #[tokio::test]
    async fn a_client_that_falls_behind_gets_a_fresh_snapshot_instead_of_what_it_missed() {
        let app = app();
        let mut client = Box::pin(client_updates(&app));
        assert_eq!(client.next().await.unwrap().event, "snapshot");
        // More updates than its queue holds, while it reads nothing.
        for n in 0..CLIENT_QUEUE + 10 {
            app.updates.send(board(n)).unwrap();
        }
        let next = client.next().await.unwrap();
        assert_eq!(next.event, "snapshot", "{next:?}");
        // Then the updates still held, the newest ones, in order.
        let then = client.next().await.unwrap();
        assert_eq!(then.event, "board");
        assert_ne!(then, board(0), "the oldest were dropped");
        // The sender never waited: the broadcast holds at most its capacity.
        assert!(app.updates.len() <= CLIENT_QUEUE);
    }

    #[tokio::test]
    async fn a_late_client_of_a_finished_run_gets_the_snapshot_and_finished_then_the_end() {
        let app = app();
        app.state().finish(Instant::now());
        let events: Vec<&str> = client_updates(&app).map(|u| u.event).collect().await;
        assert_eq!(events, ["snapshot", "finished"]);
    }

    /// A real server: a request head sent half is closed once
    /// HEAD_TIMEOUT has passed (axum's own serve held it forever), while a
    /// whole request beside it is answered.
    #[test]
    fn a_connection_that_sends_half_a_request_head_is_closed() {
        use std::io::{Read as _, Write as _};
        let listener = bind(DEFAULT_ADDR).unwrap();
        let setup = Setup {
            title: "t".into(),
            bots: vec!["a".into(), "b".into()],
            ..Setup::default()
        };
        let state = LiveState::new(setup, Instant::now());
        let server = Server::start(listener, state, None).unwrap();
        let addr = server.addr();
        let mut half = std::net::TcpStream::connect(addr).unwrap();
        half.write_all(format!("GET /state HTTP/1.1\r\nHost: {addr}\r\n").as_bytes())
            .unwrap();
        let mut whole = std::net::TcpStream::connect(addr).unwrap();
        whole
            .write_all(
                format!("GET /state HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n")
                    .as_bytes(),
            )
            .unwrap();
        let mut answer = String::new();
        whole.read_to_string(&mut answer).unwrap();
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        // Waits for the server to act, up to three times its timeout.
        half.set_read_timeout(Some(3 * HEAD_TIMEOUT)).unwrap();
        let mut rest = Vec::new();
        let read = half.read_to_end(&mut rest);
        assert!(
            read.is_ok(),
            "the half-sent request was still open: {read:?}"
        );
        let rest = String::from_utf8_lossy(&rest);
        assert!(
            rest.is_empty() || rest.starts_with("HTTP/1.1 408"),
            "{rest}"
        );
        server.stop();
    }

    #[test]
    fn one_address_holds_at_most_its_share_of_the_places() {
        let open = Arc::default();
        let (a, b) = (
            IpAddr::V4(Ipv4Addr::LOCALHOST),
            IpAddr::V4(Ipv4Addr::new(10, 0, 0, 2)),
        );
        let mut held: Vec<AddressPlace> = (0..MAX_PER_ADDRESS)
            .map(|_| AddressPlace::take(&open, a).unwrap())
            .collect();
        assert!(AddressPlace::take(&open, a).is_none(), "over the share");
        let other = AddressPlace::take(&open, b);
        assert!(other.is_some(), "another address has its own");
        held.pop();
        assert!(AddressPlace::take(&open, a).is_some(), "a place given back");
        drop(held);
        drop(other);
        assert!(open.lock().unwrap().is_empty(), "every place given back");
    }

    #[test]
    fn addresses_parse_as_host_and_port_or_name_the_problem() {
        assert_eq!(parse_addr("127.0.0.1:8080").unwrap().port(), 8080);
        assert_eq!(
            parse_addr("localhost:0").unwrap(),
            SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 0)
        );
        assert!(parse_addr("[::1]:9").unwrap().ip().is_loopback());
        for bad in [
            "",
            "8080",
            "127.0.0.1",
            "127.0.0.1:99999",
            "example.com:80",
            "x:y",
        ] {
            let e = parse_addr(bad).unwrap_err().to_string();
            assert!(
                e.starts_with(&format!("'{bad}' is not an address HOST:PORT")),
                "{e}"
            );
        }
    }

    #[test]
    fn on_loopback_only_its_own_address_is_a_host_and_elsewhere_any() {
        let hosts = allowed_hosts("127.0.0.1:4242".parse().unwrap());
        for good in ["127.0.0.1:4242", "localhost:4242", "[::1]:4242"] {
            assert!(hosts.iter().any(|h| h == good), "{good}");
        }
        for bad in ["evil.example:4242", "127.0.0.1:80", "localhost", ""] {
            assert!(!hosts.iter().any(|h| h == bad), "{bad}");
        }
        assert!(allowed_hosts("0.0.0.0:4242".parse().unwrap()).is_empty());
    }
}
