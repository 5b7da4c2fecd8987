@main
struct GestureRecognizerTool {
    static func main() {}
}
