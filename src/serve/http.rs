//! The HTTP side of the server: query strings, replies (JSON, text, the
//! page) with the headers every answer carries, request bodies with a
//! size limit, and server-sent event streams fed by a search's thread.

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Body as HttpBody, Bytes, Frame, Incoming};
use hyper::header::{HeaderValue, CONTENT_LENGTH};
use hyper::{Request, Response};
use serde_json::Value;
use tokio::sync::mpsc;

/// The largest request body accepted (a PDN collection of a few thousand
/// games).
pub const MAX_BODY: usize = 4 << 20;

/// The page needs nothing from anywhere else: no inline script, no
/// framing by another page, no plugin.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; \
     base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The body of every answer: all at once, or a stream of events.
pub type Body = http_body_util::combinators::BoxBody<Bytes, Infallible>;

/// The parameters of a query string, decoded.
pub struct Query(Vec<(String, String)>);

impl Query {
    /// Reads `a=1&b=x%20y`.
    pub fn parse(text: &str) -> Query {
        Query(
            form_urlencoded::parse(text.as_bytes())
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect(),
        )
    }

    /// The value of `name`, if given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The value of `name` as a number in `min..=max`, `default` when absent.
    pub fn number(&self, name: &str, min: f64, max: f64, default: f64) -> Result<f64, Reply> {
        let Some(text) = self.get(name) else {
            return Ok(default);
        };
        match text.trim().parse::<f64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(n),
            _ => Err(Reply::error(
                400,
                format!("{name}={text}: expected a number from {min} to {max}"),
            )),
        }
    }
}

/// A reply to send: a status, a content type and a body.
pub struct Reply {
    status: u16,
    content_type: &'static str,
    body: Body,
    /// A file name the browser saves the body under.
    attachment: Option<String>,
}

impl Reply {
    /// A 200 reply with `body` of `content_type`.
    pub fn text(body: impl Into<String>, content_type: &'static str) -> Reply {
        Reply {
            status: 200,
            content_type,
            body: Full::new(Bytes::from(body.into())).boxed(),
            attachment: None,
        }
    }

    /// A 200 reply with a JSON body.
    pub fn json(value: &Value) -> Reply {
        Reply::text(value.to_string(), "application/json")
    }

    /// A refusal: `status` with `{"error": why}`.
    pub fn error(status: u16, why: impl Into<String>) -> Reply {
        Reply {
            status,
            ..Reply::json(&serde_json::json!({ "error": why.into() }))
        }
    }

    /// A stream of server-sent events, fed by `events`.
    pub fn events(events: EventReceiver) -> Reply {
        Reply {
            status: 200,
            content_type: "text/event-stream",
            body: events.boxed(),
            attachment: None,
        }
    }

    /// The same reply, saved by the browser as `name`.
    pub fn attachment(self, name: &str) -> Reply {
        Reply {
            attachment: Some(name.to_string()),
            ..self
        }
    }

    /// The HTTP response, with the headers every answer carries: no
    /// caching, no guessing of types, no framing, the page's policy.
    pub fn into_response(self) -> Response<Body> {
        let mut response = Response::new(self.body);
        *response.status_mut() =
            hyper::StatusCode::from_u16(self.status).unwrap_or(hyper::StatusCode::OK);
        let headers = response.headers_mut();
        let fixed = [
            ("content-type", self.content_type),
            ("cache-control", "no-store"),
            ("x-content-type-options", "nosniff"),
            ("x-frame-options", "DENY"),
            ("referrer-policy", "no-referrer"),
            ("content-security-policy", CONTENT_SECURITY_POLICY),
        ];
        for (name, value) in fixed {
            headers.insert(name, HeaderValue::from_static(value));
        }
        if let Some(name) = self.attachment {
            if let Ok(value) = HeaderValue::from_str(&format!("attachment; filename=\"{name}\"")) {
                headers.insert("content-disposition", value);
            }
        }
        response
    }
}

/// The body of `request` as UTF-8 text, refused when larger than
/// [`MAX_BODY`] (by its `Content-Length` before a byte is read, or as it
/// comes) or not text.
pub async fn read_body(request: Request<Incoming>) -> Result<String, Reply> {
    let too_large = || {
        Reply::error(
            413,
            format!("the request is larger than {} MiB", MAX_BODY >> 20),
        )
    };
    let declared = request
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY as u64) {
        return Err(too_large());
    }
    let bytes = match Limited::new(request.into_body(), MAX_BODY).collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(why) if why.is::<http_body_util::LengthLimitError>() => return Err(too_large()),
        Err(why) => return Err(Reply::error(400, format!("cannot read the request: {why}"))),
    };
    String::from_utf8(bytes.to_vec())
        .map_err(|_| Reply::error(400, "the request is not UTF-8 text"))
}

/// Events queued for a slow reader before new lines are dropped.
const QUEUED_EVENTS: usize = 64;
/// How long the last events of a stream wait for a reader that does not
/// read.
const FINAL_EVENT_WAIT: Duration = Duration::from_secs(10);

/// The reader is gone (or reads nothing): the search should stop.
#[derive(Debug)]
pub struct Gone;

/// The search's end of an event stream, used from its own thread (not
/// from the server's).
pub struct EventStream {
    sender: mpsc::Sender<Bytes>,
}

/// The server's end of an event stream: the body of the response.
pub struct EventReceiver {
    receiver: mpsc::Receiver<Bytes>,
}

/// A new event stream: the search's end and the response's.
pub fn event_stream() -> (EventStream, EventReceiver) {
    let (sender, receiver) = mpsc::channel(QUEUED_EVENTS);
    (EventStream { sender }, EventReceiver { receiver })
}

impl EventStream {
    /// Sends one event named `name` with `data` as its JSON; dropped when
    /// the reader is that far behind (a later line says more).
    pub fn send(&self, name: &str, data: &Value) -> Result<(), Gone> {
        let event = Bytes::from(format!("event: {name}\ndata: {data}\n\n"));
        match self.sender.try_send(event) {
            Ok(()) | Err(mpsc::error::TrySendError::Full(_)) => Ok(()),
            Err(mpsc::error::TrySendError::Closed(_)) => Err(Gone),
        }
    }

    /// Sends the last event of the stream, waiting a while for a slow
    /// reader.
    pub fn send_last(&self, name: &str, data: &Value) -> Result<(), Gone> {
        let mut event = Bytes::from(format!("event: {name}\ndata: {data}\n\n"));
        let deadline = Instant::now() + FINAL_EVENT_WAIT;
        loop {
            match self.sender.try_send(event) {
                Ok(()) => return Ok(()),
                Err(mpsc::error::TrySendError::Closed(_)) => return Err(Gone),
                Err(mpsc::error::TrySendError::Full(back)) if Instant::now() < deadline => {
                    event = back;
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(mpsc::error::TrySendError::Full(_)) => return Err(Gone),
            }
        }
    }

    /// A comment, which the page ignores: it keeps proxies from closing a
    /// quiet stream.
    pub fn keep_alive(&self) -> Result<(), Gone> {
        match self
            .sender
            .try_send(Bytes::from_static(b": still searching\n\n"))
        {
            Ok(()) | Err(mpsc::error::TrySendError::Full(_)) => Ok(()),
            Err(mpsc::error::TrySendError::Closed(_)) => Err(Gone),
        }
    }

    /// Whether the reader is gone (its connection closed).
    pub fn is_gone(&self) -> bool {
        self.sender.is_closed()
    }
}

impl HttpBody for EventReceiver {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        self.receiver
            .poll_recv(cx)
            .map(|event| event.map(|bytes| Ok(Frame::data(bytes))))
    }
}
