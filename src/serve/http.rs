//! The HTTP side of the server: query strings, replies (JSON, text, the
//! page), request bodies with a size limit, and server-sent event streams.

use std::io::{Read, Write};

use serde_json::Value;
use tiny_http::{Header, Request, Response, StatusCode};

/// The largest request body accepted (a PDN collection of a few thousand
/// games).
pub const MAX_BODY: usize = 4 << 20;

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
    body: String,
    /// A file name the browser saves the body under.
    attachment: Option<String>,
}

impl Reply {
    /// A 200 reply with `body` of `content_type`.
    pub fn text(body: impl Into<String>, content_type: &'static str) -> Reply {
        Reply {
            status: 200,
            content_type,
            body: body.into(),
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

    /// The same reply, saved by the browser as `name`.
    pub fn attachment(self, name: &str) -> Reply {
        Reply {
            attachment: Some(name.to_string()),
            ..self
        }
    }

    /// Sends the reply; a client gone meanwhile is no error of ours.
    pub fn send(self, request: Request) {
        let mut response = Response::from_string(self.body)
            .with_status_code(StatusCode(self.status))
            .with_header(header("Content-Type", self.content_type))
            .with_header(header("Cache-Control", "no-store"))
            .with_header(header("X-Content-Type-Options", "nosniff"));
        if let Some(name) = self.attachment {
            response = response.with_header(header(
                "Content-Disposition",
                &format!("attachment; filename=\"{name}\""),
            ));
        }
        let _ = request.respond(response);
    }
}

/// A header from a name and a value that are valid header text.
fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes())
        .unwrap_or_else(|()| unreachable!("the header {name}: {value} is valid"))
}

/// The body of `request` as UTF-8 text, refused when larger than
/// [`MAX_BODY`] or not text.
pub fn read_body(request: &mut Request) -> Result<String, Reply> {
    let too_large = || {
        Reply::error(
            413,
            format!("the request is larger than {} MiB", MAX_BODY >> 20),
        )
    };
    if request.body_length().is_some_and(|n| n > MAX_BODY) {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Reply::error(400, format!("cannot read the request: {e}")))?;
    if bytes.len() > MAX_BODY {
        return Err(too_large());
    }
    String::from_utf8(bytes).map_err(|_| Reply::error(400, "the request is not UTF-8 text"))
}

/// A stream of server-sent events written straight to the connection:
/// each event is flushed as it is sent, and a send fails once the reader
/// is gone (a closed tab, a stopped analysis).
pub struct EventStream {
    writer: Box<dyn Write + Send>,
}

impl EventStream {
    /// Answers `request` with the head of an event stream.
    pub fn open(request: Request) -> std::io::Result<EventStream> {
        let mut writer = request.into_writer();
        writer.write_all(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\
              Cache-Control: no-store\r\nConnection: close\r\n\r\n",
        )?;
        writer.flush()?;
        Ok(EventStream { writer })
    }

    /// Sends one event named `name` with `data` as its JSON.
    pub fn send(&mut self, name: &str, data: &Value) -> std::io::Result<()> {
        write!(self.writer, "event: {name}\ndata: {data}\n\n")?;
        self.writer.flush()
    }

    /// Sends a comment, which the page ignores: a closed connection shows
    /// as an error here while the search has nothing new to say.
    pub fn keep_alive(&mut self) -> std::io::Result<()> {
        self.writer.write_all(b": still searching\n\n")?;
        self.writer.flush()
    }
}
