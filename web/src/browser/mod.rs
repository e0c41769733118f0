//! The glue to the browser outside the components: the address bar, downloads and local
//! storage ([`url`]), the JavaScript bundle ([`js`]) and the console hook ([`debug_hook`]).

pub mod debug_hook;
pub mod effects;
pub mod js;
pub mod url;
