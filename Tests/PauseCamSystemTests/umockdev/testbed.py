#!/usr/bin/python3
"""Sets up a umockdev testbed of USB webcams and runs one XCTest inside it.

Usage (always under umockdev-wrapper, with Debian's /usr/bin/python3, which has gi):
    umockdev-wrapper /usr/bin/python3 testbed.py SCENARIO XCTEST_BINARY TEST_FILTER

SCENARIO is "enumerate" (three webcams with serials plus a UVC metadata node exist before the test starts) or
"hotplug" (the test starts first; once its udev monitor socket exists, a camera is added, a metadata node is added,
the camera gets a change event, is unplugged and plugged back, and a sentinel camera "END" is added last).
The child gets UMOCKDEV_DIR and PAUSECAM_UMOCKDEV_SCENARIO; this script exits with the child's status.
"""
import glob
import os
import subprocess
import sys
import time

import gi

gi.require_version('UMockdev', '1.0')
from gi.repository import UMockdev  # noqa: E402

# name, vendor, product, serial (None: only the USB device's sysfs attribute has it), v4l2 node number, usb port
CAMERAS = [
    ('HD Pro Webcam C920', '046d', '082d', 'AAAA1111', 0, 1),
    ('HD Pro Webcam C920', '046d', '082d', 'BBBB2222', 2, 2),
    ('Logitech BRIO', '046d', '085e', None, 4, 3),
]
BRIO_USB_SERIAL = 'CCCC3333'


def add_camera(testbed, name, vendor, product, serial, node, port, metadata_node=None):
    """A USB device, its video interface, the capture node and optionally the UVC metadata node.

    Returns the interface's path and the video node paths (capture first)."""
    usb = testbed.add_device(
        'usb', f'usb1/1-{port}', None,
        ['idVendor', vendor, 'idProduct', product, 'serial', serial or BRIO_USB_SERIAL, 'product', name],
        ['DEVTYPE', 'usb_device', 'PRODUCT', f'{int(vendor, 16):x}/{int(product, 16):x}/0'])
    interface = testbed.add_device('usb', f'1-{port}:1.0', usb, ['bInterfaceClass', '0e'],
                                   ['DEVTYPE', 'usb_interface', 'DRIVER', 'uvcvideo'])
    return interface, add_nodes(testbed, interface, name, vendor, product, serial, node, port, metadata_node)


def add_nodes(testbed, interface, name, vendor, product, serial, node, port, metadata_node=None):
    """The capture node and optionally the metadata node of a camera's video interface; returns their paths."""
    def properties(number, capabilities):
        props = ['DEVNAME', f'/dev/video{number}', 'MAJOR', '81', 'MINOR', str(number),
                 'ID_V4L_CAPABILITIES', capabilities, 'ID_V4L_PRODUCT', name,
                 'ID_VENDOR_ID', vendor, 'ID_MODEL_ID', product, 'ID_USB_DRIVER', 'uvcvideo',
                 'ID_PATH', f'pci-0000:00:14.0-usb-0:{port}:1.0']
        if serial:
            props += ['ID_SERIAL_SHORT', serial, 'ID_SERIAL', f'Logitech_{name.replace(" ", "_")}_{serial}']
        return props

    paths = [testbed.add_device('video4linux', f'video{node}', interface,
                                ['name', name, 'index', '0', 'dev', f'81:{node}'],
                                properties(node, ':capture:'))]
    if metadata_node is not None:
        paths.append(testbed.add_device('video4linux', f'video{metadata_node}', interface,
                                        ['name', name, 'index', '1', 'dev', f'81:{metadata_node}'],
                                        properties(metadata_node, ':')))
    return paths


def wait_for_monitor(root, child):
    """umockdev creates $UMOCKDEV_DIR/event<N> when the child's udev monitor starts listening."""
    deadline = time.monotonic() + 30
    while not glob.glob(os.path.join(root, 'event*')):
        if child.poll() is not None or time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    time.sleep(0.1)
    return True


def main():
    scenario, binary, test_filter = sys.argv[1:4]
    testbed = UMockdev.Testbed.new()
    assert UMockdev.in_mock_environment(), 'run under umockdev-wrapper'
    environment = dict(os.environ, UMOCKDEV_DIR=testbed.get_root_dir(), PAUSECAM_UMOCKDEV_SCENARIO=scenario)

    if scenario == 'enumerate':
        for index, (name, vendor, product, serial, node, port) in enumerate(CAMERAS):
            add_camera(testbed, name, vendor, product, serial, node, port,
                       metadata_node=node + 1 if index == 0 else None)
        return subprocess.call([binary, test_filter], env=environment)

    if scenario == 'hotplug':
        child = subprocess.Popen([binary, test_filter], env=environment)
        if not wait_for_monitor(testbed.get_root_dir(), child):
            child.kill()
            print('testbed.py: the test never opened a udev monitor', file=sys.stderr)
            return 2
        name, vendor, product, serial, node, port = CAMERAS[0]
        interface, (capture, metadata) = add_camera(testbed, name, vendor, product, serial, node, port,
                                                    metadata_node=node + 1)
        time.sleep(0.1)
        testbed.uevent(capture, 'change')
        time.sleep(0.1)
        # Unplug, child first: send "remove" while the device still exists, then delete it.
        testbed.uevent(metadata, 'remove')
        testbed.remove_device(metadata)
        testbed.uevent(capture, 'remove')
        testbed.remove_device(capture)
        time.sleep(0.1)
        add_nodes(testbed, interface, name, vendor, product, serial, node, port)
        time.sleep(0.1)
        add_camera(testbed, 'END', '1d6b', '0104', 'END', 8, 8)
        try:
            return child.wait(timeout=60)
        except subprocess.TimeoutExpired:
            child.kill()
            return 3

    print(f'testbed.py: unknown scenario {scenario}', file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main())
