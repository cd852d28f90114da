//! The bundled alphabeta bot as a standalone executable: `endodoi-alphabeta [OPTIONS]` (`--help` lists them).

fn main() {
    std::process::exit(endodoi_bots::standalone_main("alphabeta"));
}
