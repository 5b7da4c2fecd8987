@main
struct ComponentHostTool {
    static func main() {}
}
