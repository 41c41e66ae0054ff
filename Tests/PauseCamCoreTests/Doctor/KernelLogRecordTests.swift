import PauseCamCore
import XCTest

final class KernelLogRecordTests: XCTestCase {
    func testRecordsBecomeTheLinesDmesgPrints() {
        let table: [(String, String?)] = [
            ("6,1234,40123456,-;uvcvideo 1-1.2:1.0: Failed to submit URB 0 (-28).\n",
             "[   40.123456] uvcvideo 1-1.2:1.0: Failed to submit URB 0 (-28)."),
            ("4,7,5,-;usb usb1-port4: Cannot enable. Maybe the USB cable is bad?\n SUBSYSTEM=usb\n DEVICE=+usb:usb1\n",
             "[    0.000005] usb usb1-port4: Cannot enable. Maybe the USB cable is bad?"),
            ("5,0,0,-;Linux version 6.1.0\n", "[    0.000000] Linux version 6.1.0"),
            ("14,99,123456789012,c,caller=T1;a message; with a semicolon\n",
             "[123456.789012] a message; with a semicolon"),
            ("6,3,1000000,-;\n", "[    1.000000] "),
            ("no record at all\n", nil),
            ("6,3,soon,-;timestamp is not a number\n", nil),
            ("6,3;too few fields\n", nil),
        ]
        for (record, line) in table { XCTAssertEqual(KernelLogRecord.line(from: record), line, record) }
    }

    func testALineMadeFromARecordIsSortedLikeDmesgsOwn() {
        let line = KernelLogRecord.line(from: "3,88,99000000,-;usb 2-3: reset SuperSpeed USB device number 2 using xhci_hcd\n")
        XCTAssertEqual(line.flatMap(USBKernelMessages.kind(of:)), .reset)
    }
}
