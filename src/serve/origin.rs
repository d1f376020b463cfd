//! Which requests the server answers: those sent to the address it serves
//! (the `Host` header), from its own page (the `Origin` and
//! `Sec-Fetch-Site` headers). Another web page open in the user's browser
//! cannot start searches on the board's port, directly (a cross-site
//! request) or through a name of its own pointed at this machine (DNS
//! rebinding).

use std::net::{IpAddr, SocketAddr};

/// The hosts a request may name.
#[derive(Clone, Debug)]
pub struct Hosts {
    served: SocketAddr,
    /// Names allowed besides the address (`--allow-host`), lower case.
    names: Vec<String>,
}

/// Why a request was refused: its status and a message.
pub type Refused = (u16, String);

impl Hosts {
    /// The hosts of a server listening on `served`: its address, the
    /// localhost names when that is a loopback address (or every
    /// address), and `extra` names.
    pub fn new(served: SocketAddr, extra: &[String]) -> Hosts {
        let mut names: Vec<String> = extra.iter().map(|name| name.to_ascii_lowercase()).collect();
        let ip = served.ip();
        if ip.is_loopback() || ip.is_unspecified() {
            names.extend(["localhost", "localhost.localdomain"].map(String::from));
        }
        Hosts { served, names }
    }

    /// Whether `host` (a `Host` header: a name or an address, a port
    /// perhaps) names this server. An address is safe to allow when it is
    /// the one served (any address, when every address is served): a
    /// rebound name is never an address.
    pub fn allows(&self, host: &str) -> bool {
        let host = host.trim().to_ascii_lowercase();
        let (name, port) = split_port(&host);
        if port.is_some_and(|port| port != self.served.port()) {
            return false;
        }
        let literal = name
            .strip_prefix('[')
            .and_then(|n| n.strip_suffix(']'))
            .unwrap_or(name);
        if let Ok(ip) = literal.parse::<IpAddr>() {
            return ip == self.served.ip()
                || self.served.ip().is_unspecified()
                || (self.served.ip().is_loopback() && ip.is_loopback());
        }
        self.names.iter().any(|allowed| allowed == name)
    }

    /// Checks a request's `Host`, `Origin`, `Sec-Fetch-Site` and
    /// `Sec-Fetch-Mode`: a request for another host, or from another
    /// site's page, is refused (403). Another site may link to the page
    /// (a navigation), no more.
    pub fn check(
        &self,
        host: Option<&str>,
        origin: Option<&str>,
        fetch_site: Option<&str>,
        navigation: bool,
    ) -> Result<(), Refused> {
        let Some(host) = host else {
            return Err((400, "the request names no Host".to_string()));
        };
        if !self.allows(host) {
            return Err((
                403,
                format!(
                    "Host {host} is not this server's address (tempo serve \
                     --allow-host NAME allows another name)"
                ),
            ));
        }
        if let Some(origin) = origin {
            let own = format!("http://{}", host.trim().to_ascii_lowercase());
            if origin.trim().to_ascii_lowercase() != own {
                return Err((
                    403,
                    format!("requests from {origin} are refused: only this server's page may ask"),
                ));
            }
        }
        let from_elsewhere = matches!(fetch_site, Some("cross-site" | "same-site"));
        if from_elsewhere && !navigation {
            return Err((
                403,
                "requests from another site's page are refused: only this server's page may ask"
                    .to_string(),
            ));
        }
        Ok(())
    }
}

/// A host and its port, if it names one (`[::1]:80`, `name:80`).
fn split_port(host: &str) -> (&str, Option<u16>) {
    let colon = match host.rfind(':') {
        Some(i) if !host[i..].contains(']') => i,
        _ => return (host, None),
    };
    // An IPv6 address without brackets has colons but no port.
    if host[..colon].contains(':') && !host.starts_with('[') {
        return (host, None);
    }
    match host[colon + 1..].parse() {
        Ok(port) => (&host[..colon], Some(port)),
        Err(_) => (host, Some(0)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loopback() -> Hosts {
        Hosts::new(
            "127.0.0.1:8080".parse().unwrap(),
            &["board.lan".to_string()],
        )
    }

    #[test]
    fn the_address_served_and_the_localhost_names() {
        let hosts = loopback();
        for host in [
            "127.0.0.1:8080",
            "127.0.0.1",
            "localhost:8080",
            "LOCALHOST:8080",
            "[::1]:8080",
            "board.lan:8080",
        ] {
            assert!(hosts.allows(host), "{host}");
        }
        for host in [
            "evil.example:8080",
            "127.0.0.1:8081",
            "localhost:x",
            "10.0.0.1:8080",
            "",
        ] {
            assert!(!hosts.allows(host), "{host}");
        }
    }

    #[test]
    fn an_address_bound_on_the_network() {
        let one = Hosts::new("192.168.1.5:80".parse().unwrap(), &[]);
        assert!(one.allows("192.168.1.5"));
        assert!(!one.allows("localhost"));
        assert!(!one.allows("192.168.1.6"));
        let every = Hosts::new("0.0.0.0:80".parse().unwrap(), &[]);
        assert!(every.allows("192.168.1.6:80") && every.allows("localhost"));
        assert!(!every.allows("rebound.example"));
    }

    #[test]
    fn origins_and_fetch_sites() {
        let hosts = loopback();
        let host = Some("127.0.0.1:8080");
        assert!(hosts.check(host, None, None, false).is_ok());
        assert!(hosts
            .check(
                host,
                Some("http://127.0.0.1:8080"),
                Some("same-origin"),
                false
            )
            .is_ok());
        assert_eq!(
            hosts
                .check(host, Some("http://evil.example"), None, false)
                .unwrap_err()
                .0,
            403
        );
        assert_eq!(
            hosts
                .check(host, None, Some("cross-site"), false)
                .unwrap_err()
                .0,
            403
        );
        assert!(hosts.check(host, None, Some("cross-site"), true).is_ok());
        assert_eq!(hosts.check(None, None, None, false).unwrap_err().0, 400);
        let why = hosts
            .check(Some("evil.example"), None, None, false)
            .unwrap_err();
        assert!(why.0 == 403 && why.1.contains("--allow-host"), "{why:?}");
    }
}
