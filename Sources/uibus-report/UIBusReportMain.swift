import DemoReport
import ServiceSupport

/// `uibus-report`: turns a demo's MCAP recording into `report.html` (see ``ReportCommand``).
@main
enum UIBusReportMain {
    static func main() {
        Tool.main("uibus-report", usage: ReportCommand.usage) {
            Log.out(try ReportCommand(arguments: Array(CommandLine.arguments.dropFirst())).run())
        }
    }
}
