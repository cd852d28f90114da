//! The bundled random bot as a standalone executable: `endodoi-random [--seed N]`.

fn main() {
    std::process::exit(endodoi_bots::standalone_main("random"));
}
