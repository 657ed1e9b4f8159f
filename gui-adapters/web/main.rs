//! `marshal-web`: a local server that lets a person play Marshal in a web browser. It
//! serves one page (built into the binary) and, per page, referees a game against a
//! `marshal` engine process spoken to in the protocol of `protocol.md` (see README.md).

mod engine;
mod game;
mod watch;

use clap::Parser;
use game::{KillSlot, Session, Sink};
use serde_json::Value;
use std::io::Cursor;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tiny_http::{Header, Request, Response, Server};
use tungstenite::protocol::{Role, WebSocketConfig};
use tungstenite::{Message, WebSocket};

/// The page, built in: the server needs no files beside it.
const PAGE: &[(&str, &str, &str)] = &[
    ("/", "text/html; charset=utf-8", include_str!("page/index.html")),
    ("/app.js", "text/javascript; charset=utf-8", include_str!("page/app.js")),
    ("/style.css", "text/css; charset=utf-8", include_str!("page/style.css")),
];

/// Largest message a page may send (a long game's record fits easily).
const MAX_MESSAGE: usize = 4 << 20;

#[derive(Parser, Debug)]
#[command(name = "marshal-web", version, about = "Play Marshal in a web browser")]
struct Args {
    /// Address to listen on (only this machine by default).
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Port to listen on (0: any free port, printed at start).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// A further engine the watch mode may run (as `marshal match --engine` takes it);
    /// repeatable. marshal, builtin:random and builtin:greedy are always allowed.
    #[arg(long = "engine")]
    engines: Vec<String>,
    /// Seconds without a message from a page (it sends one every 200 ms) before its engine
    /// is stopped.
    #[arg(long, default_value_t = 5)]
    silence: u64,
}

/// Writes the session's messages straight to the page's socket.
struct WsSink<'a>(&'a mut WebSocket<Box<dyn tiny_http::ReadWrite + Send>>);

impl Sink for WsSink<'_> {
    fn send(&mut self, v: Value) {
        if let Err(e) = self.0.send(Message::text(v.to_string())) {
            tracing::debug!("cannot write to the page: {e}");
        }
    }
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some(engine::SELF_ENGINE) {
        // Started as its own engine (no `marshal` beside it): the protocol loop on stdio.
        marshal::engine::run_stdio();
        return;
    }
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("MARSHAL_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .init();
    let args = Args::parse();
    let server = match Server::http((args.host.as_str(), args.port)) {
        Ok(s) => s,
        Err(e) => {
            tracing::error!("cannot listen on {}:{}: {e}", args.host, args.port);
            std::process::exit(2);
        }
    };
    let addr = server.server_addr();
    tracing::info!(
        "marshal-web: open http://{addr} (engine: {})",
        engine::engine_shell_command()
    );
    let engines = Arc::new(args.engines.clone());
    let silence = Duration::from_secs(args.silence.max(1));
    for request in server.incoming_requests() {
        if request.url() == "/ws" {
            let engines = Arc::clone(&engines);
            let bound = args.host.clone();
            std::thread::spawn(move || upgrade(request, engines, silence, bound));
        } else {
            serve_file(request);
        }
    }
}

fn header(name: &str, value: &str) -> Option<Header> {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).ok()
}

fn serve_file(request: Request) {
    let path = request.url().split('?').next().unwrap_or("/").to_string();
    let response = match PAGE.iter().find(|(p, _, _)| *p == path) {
        Some((_, mime, body)) => {
            let mut r = Response::from_string(*body);
            for h in [header("Content-Type", mime), header("Cache-Control", "no-store")]
                .into_iter()
                .flatten()
            {
                r.add_header(h);
            }
            r
        }
        None => Response::from_string(format!("no page at {path}")).with_status_code(404),
    };
    let _ = request.respond(response);
}

fn request_header(request: &Request, name: &'static str) -> Option<String> {
    request
        .headers()
        .iter()
        .find(|h| h.field.equiv(name))
        .map(|h| h.value.as_str().to_string())
}

/// Whether a Host header names this server: `localhost`, an address, or the `--host` name.
fn host_allowed(host: &str, bound: &str) -> bool {
    let name = match host.rsplit_once(':') {
        Some((h, port)) if port.bytes().all(|b| b.is_ascii_digit()) => h,
        _ => host,
    };
    let name = name.trim_start_matches('[').trim_end_matches(']');
    name.eq_ignore_ascii_case("localhost")
        || name.parse::<std::net::IpAddr>().is_ok()
        || name.eq_ignore_ascii_case(bound)
}

/// Refuses a plain request to /ws, or one from another site's page (a browser lets any
/// page open a WebSocket to 127.0.0.1; the Origin header says whose page it is).
fn upgrade(request: Request, engines: Arc<Vec<String>>, silence: Duration, bound: String) {
    let key = request_header(&request, "Sec-WebSocket-Key");
    let wants = request_header(&request, "Upgrade").is_some_and(|u| u.eq_ignore_ascii_case("websocket"));
    let (Some(key), true) = (key, wants) else {
        let _ = request.respond(Response::from_string("/ws takes WebSocket connections only").with_status_code(400));
        return;
    };
    let host = request_header(&request, "Host").unwrap_or_default();
    if !host_allowed(&host, &bound) {
        // A name other than this machine's: a page of another site whose name was made to
        // point here (DNS rebinding).
        tracing::warn!("refused a WebSocket for host {host}");
        let _ = request.respond(Response::from_string("unknown host name").with_status_code(403));
        return;
    }
    if let Some(origin) = request_header(&request, "Origin") {
        let origin_host = origin.split("://").nth(1).unwrap_or("");
        if origin_host != host {
            tracing::warn!("refused a WebSocket from origin {origin} (host {host})");
            let _ =
                request.respond(Response::from_string("pages of other sites may not connect").with_status_code(403));
            return;
        }
    }
    let accept = tungstenite::handshake::derive_accept_key(key.as_bytes());
    let mut response = Response::new(101.into(), Vec::new(), Cursor::new(Vec::new()), Some(0), None);
    if let Some(h) = header("Sec-WebSocket-Accept", &accept) {
        response.add_header(h);
    }
    let stream = request.upgrade("websocket", response);
    let config = WebSocketConfig::default()
        .max_message_size(Some(MAX_MESSAGE))
        .max_frame_size(Some(MAX_MESSAGE));
    let ws = WebSocket::from_raw_socket(stream, Role::Server, Some(config));
    connection(ws, engines, silence);
}

/// The page's connection. The upgraded stream of tiny_http can neither be split nor time
/// out, so this one thread both reads and writes: the page sends a `ping` every 200 ms,
/// and after every message the thread writes what happened meanwhile. A watchdog stops the
/// engine of a page that has gone silent.
fn connection(mut ws: WebSocket<Box<dyn tiny_http::ReadWrite + Send>>, engines: Arc<Vec<String>>, silence: Duration) {
    let started = Instant::now();
    let last_seen = Arc::new(AtomicU64::new(0));
    let closed = Arc::new(AtomicBool::new(false));
    let silenced = Arc::new(AtomicBool::new(false));
    let kill: KillSlot = Arc::new(Mutex::new(None));
    {
        let (last_seen, closed, silenced, kill) = (
            Arc::clone(&last_seen),
            Arc::clone(&closed),
            Arc::clone(&silenced),
            Arc::clone(&kill),
        );
        std::thread::spawn(move || {
            while !closed.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(250));
                let quiet = started
                    .elapsed()
                    .saturating_sub(Duration::from_millis(last_seen.load(Ordering::SeqCst)));
                if quiet > silence && !silenced.swap(true, Ordering::SeqCst) {
                    tracing::info!("a page went silent; stopping its engine");
                    if let Some(child) = kill.lock().ok().and_then(|mut k| k.take()) {
                        if let Ok(mut c) = child.lock() {
                            let _ = c.kill();
                            let _ = c.wait();
                        }
                    }
                }
            }
        });
    }
    let mut session = Session::new(Arc::clone(&kill), engines);
    WsSink(&mut ws).send(serde_json::json!({ "type": "hello", "version": env!("CARGO_PKG_VERSION") }));
    loop {
        let msg = match ws.read() {
            Ok(m) => m,
            Err(e) => {
                tracing::debug!("page connection ended: {e}");
                break;
            }
        };
        last_seen.store(started.elapsed().as_millis() as u64, Ordering::SeqCst);
        if silenced.swap(false, Ordering::SeqCst) {
            // The page is back after a silence: what ran for it was stopped.
            session.stop_watch();
        }
        let mut sink = WsSink(&mut ws);
        match msg {
            Message::Text(t) => session.handle(t.as_str(), &mut sink),
            Message::Binary(_) => sink.send(game::error("binary messages are not understood; send JSON text")),
            Message::Close(_) => break,
            _ => {}
        }
        session.poll(&mut sink);
        if let Err(e) = ws.flush() {
            tracing::debug!("cannot write to the page: {e}");
            break;
        }
    }
    closed.store(true, Ordering::SeqCst);
    // Dropping the session stops its engine and any watched match.
    drop(session);
}
