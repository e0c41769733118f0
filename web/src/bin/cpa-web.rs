//! The playground page.

fn main() {
    yew::Renderer::<cpa_web::components::app::App>::new().render();
}
