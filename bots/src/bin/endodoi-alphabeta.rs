//! The bundled alphabeta bot as a standalone executable: `endodoi-alphabeta [OPTIONS]` (`--help` lists them).

fn main() {
    std::process::exit(endodoi_bots::main_for(
        "alphabeta",
        std::env::args().skip(1),
    ));
}
