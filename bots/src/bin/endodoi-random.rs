//! The bundled random bot as a standalone executable: `endodoi-random [--seed N]`.

fn main() {
    std::process::exit(endodoi_bots::main_for("random", std::env::args().skip(1)));
}
