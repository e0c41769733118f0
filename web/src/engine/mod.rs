//! The page's side of the engine worker: the message protocol ([`protocol`]), the client
//! that sends requests and routes replies ([`client`]) and the driver that carries out the
//! reducer's commands ([`driver`]).

pub mod client;
pub mod driver;
