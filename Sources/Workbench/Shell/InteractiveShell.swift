/// The interactive shell. (Line editing comes with the libedit reader.)
struct InteractiveShell {
    let shell: Shell

    func run() -> Int32 {
        shell.isInteractive = true
        while !shell.quitRequested, let line = readLine() {
            shell.run(script: line, source: "<stdin>")
        }
        return 0
    }
}
