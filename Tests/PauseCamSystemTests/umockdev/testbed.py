#!/usr/bin/python3
"""Sets up a umockdev testbed of USB webcams and runs one XCTest inside it.

Usage (always under umockdev-wrapper, with Debian's /usr/bin/python3, which has gi):
    umockdev-wrapper /usr/bin/python3 testbed.py SCENARIO XCTEST_BINARY TEST_FILTER

SCENARIO is "ioctl" (one camera with the PTZ controls of a C920 and its metadata node as real pseudo-terminal nodes whose V4L2 ioctls are answered
by `V4L2Answers` below: QUERYCAP, G_FMT, ENUM_FMT, ENUM_FRAMESIZES, ENUM_FRAMEINTERVALS, QUERYCTRL, G_CTRL), "enumerate" (three webcams with serials plus a UVC metadata node exist before the test starts) or
"soundplug" (two cards plugged in while a real-clock `pausecam run` waits for its microphone),
"soundhotplug" (sound cards plugged, unplugged and re-plugged while the test's sound watcher runs), or
"usbplan" (a recorded desktop topology: two controllers, three root hubs, a USB 2.0 hub and four webcams with
their bus, port, speed and USB version), or
"hotplug" (the test starts first; once its udev monitor socket exists, a camera is added, a metadata node is added,
the camera gets a change event, is unplugged and plugged back, and a sentinel camera "END" is added last).
The child gets UMOCKDEV_DIR and PAUSECAM_UMOCKDEV_SCENARIO; this script exits with the child's status.
"""
import glob
import os
import struct
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
        props = ['DEVNAME', f'video{number}', 'MAJOR', '81', 'MINOR', str(number),
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


def ioc(direction, number, size):
    """The kernel's _IOC(direction, 'V', number, size); direction 2 = read, 3 = read/write."""
    return (direction << 30) | (size << 16) | (ord('V') << 8) | number


VIDIOC_QUERYCAP = ioc(2, 0, 104)
VIDIOC_ENUM_FMT = ioc(3, 2, 64)
VIDIOC_G_FMT = ioc(3, 4, 208)
VIDIOC_G_CTRL = ioc(3, 27, 8)
VIDIOC_QUERYCTRL = ioc(3, 36, 68)
VIDIOC_ENUM_FRAMESIZES = ioc(3, 74, 44)
VIDIOC_ENUM_FRAMEINTERVALS = ioc(3, 75, 52)
EINVAL, ENOTTY = 22, 25
CAP_VIDEO_CAPTURE, CAP_META_CAPTURE, CAP_STREAMING, CAP_DEVICE_CAPS = 0x1, 0x800000, 0x4000000, 0x80000000
MJPG = struct.unpack('<I', b'MJPG')[0]
YUYV = struct.unpack('<I', b'YUYV')[0]
# format → [(width, height, [(interval numerator, denominator)])]
MODES = {MJPG: [(1280, 720, [(1, 30), (1, 15)])], YUYV: [(640, 480, [(1, 30)])]}
ZOOM_ABSOLUTE = 0x009a090d
PAN_ABSOLUTE = 0x009a0908
TILT_ABSOLUTE = 0x009a0909
# What VIDIOC_G_CTRL reports: a zoom that is neither the minimum nor the default, as if a session had zoomed.
CURRENT_ZOOM = 250
# The camera's PTZ controls as a C920's uvcvideo lists them: control → (name, minimum, maximum, step, default,
# current). Pan and tilt are in arc seconds, one step is 1 degree.
PTZ_CONTROLS = {
    ZOOM_ABSOLUTE: (b'Zoom, Absolute', 100, 500, 1, 100, CURRENT_ZOOM),
    PAN_ABSOLUTE: (b'Pan, Absolute', -36000, 36000, 3600, 0, -3600),
    TILT_ABSOLUTE: (b'Tilt, Absolute', -36000, 36000, 3600, 0, 0),
}


class V4L2Answers(UMockdev.IoctlBase):
    """Answers the V4L2 ioctls of a UVC webcam's two nodes like uvcvideo would (no streaming: mmap cannot work)."""

    def __init__(self, metadata):
        super().__init__()
        self.metadata = metadata

    def do_handle_ioctl(self, client):
        request = client.get_request()
        sizes = {VIDIOC_QUERYCAP: 104, VIDIOC_ENUM_FMT: 64, VIDIOC_G_FMT: 208, VIDIOC_QUERYCTRL: 68,
                 VIDIOC_ENUM_FRAMESIZES: 44, VIDIOC_ENUM_FRAMEINTERVALS: 52, VIDIOC_G_CTRL: 8}
        if request not in sizes:
            client.complete(-1, ENOTTY)
            return True
        data = client.get_arg().resolve(0, sizes[request])
        current = bytes(data.retrieve())
        answer = self.answer(request, current)
        if answer is None:
            client.complete(-1, EINVAL)
        else:
            data.update(0, list(answer + current[len(answer):]))
            client.complete(0, 0)
        return True

    def answer(self, request, current):
        if request == VIDIOC_QUERYCAP:
            node = CAP_META_CAPTURE if self.metadata else CAP_VIDEO_CAPTURE
            return struct.pack('<16s32s32sIII', b'uvcvideo', b'Fake C920', b'usb-0000:00:14.0-1', 0x60000,
                               CAP_VIDEO_CAPTURE | CAP_META_CAPTURE | CAP_STREAMING | CAP_DEVICE_CAPS,
                               node | CAP_STREAMING)
        if self.metadata:
            return None
        if request == VIDIOC_G_FMT:
            return struct.pack('<IIIIIII', 1, 1280, 720, MJPG, 1, 0, 1280 * 720 * 2)
        if request == VIDIOC_ENUM_FMT:
            index, kind = struct.unpack_from('<II', current)
            formats = list(MODES)
            if kind != 1 or index >= len(formats):
                return None
            names = {MJPG: b'Motion-JPEG', YUYV: b'YUYV 4:2:2'}
            return struct.pack('<III32sI', index, 1, 1 if formats[index] == MJPG else 0,
                               names[formats[index]], formats[index])
        if request == VIDIOC_ENUM_FRAMESIZES:
            index, fourcc = struct.unpack_from('<II', current)
            sizes = MODES.get(fourcc, [])
            if index >= len(sizes):
                return None
            return struct.pack('<IIIII', index, fourcc, 1, sizes[index][0], sizes[index][1])
        if request == VIDIOC_ENUM_FRAMEINTERVALS:
            index, fourcc, width, height = struct.unpack_from('<IIII', current)
            matches = [m for m in MODES.get(fourcc, []) if m[0] == width and m[1] == height]
            if not matches or index >= len(matches[0][2]):
                return None
            numerator, denominator = matches[0][2][index]
            return struct.pack('<IIIIIII', index, fourcc, width, height, 1, numerator, denominator)
        if request == VIDIOC_QUERYCTRL:
            control = struct.unpack_from('<I', current)[0]
            if control not in PTZ_CONTROLS:
                return None
            name, minimum, maximum, step, default, _ = PTZ_CONTROLS[control]
            return struct.pack('<II32siiiiI', control, 1, name, minimum, maximum, step, default, 0)
        if request == VIDIOC_G_CTRL:
            control = struct.unpack_from('<I', current)[0]
            if control not in PTZ_CONTROLS:
                return None
            return struct.pack('<Ii', control, PTZ_CONTROLS[control][5])
        return None


# A desktop's USB as sysfs shows it (written by hand, not captured from a machine): an xHCI controller at 0000:00:14.0 with its USB 2.0 root hub (bus 1) and
# its SuperSpeed root hub (bus 2), and a second controller at 0000:03:00.0 (bus 3, USB 2.0).
# Bus 1: a USB 2.0 hub on port 1 with two C920s (1-1.1, 1-1.2), and a USB 3 BRIO on port 4 held to 480 Mbit/s
# (a USB 2 port). Bus 3: one C920 on port 2.
# controller, bus, root hub speed
USB_ROOT_HUBS = [('0000:00:14.0', 1, '480'), ('0000:00:14.0', 2, '5000'), ('0000:03:00.0', 3, '480')]
# name, vendor, product, serial, video node, bus, devpath, speed, bcdUSB
USB_TOPOLOGY_CAMERAS = [
    ('HD Pro Webcam C920', '046d', '082d', 'AAAA1111', 0, 1, '1.1', '480', '2.00'),
    ('HD Pro Webcam C920', '046d', '082d', 'BBBB2222', 2, 1, '1.2', '480', '2.00'),
    ('Logitech BRIO', '046d', '085e', 'CCCC3333', 4, 1, '4', '480', '3.20'),
    ('HD Pro Webcam C920', '046d', '082d', 'DDDD4444', 6, 3, '2', '480', '2.00'),
]


def add_usb_topology(testbed):
    """Controllers, root hubs, a hub and four cameras with the sysfs attributes the USB planner reads."""
    controllers, devices = {}, {}
    for controller, bus, speed in USB_ROOT_HUBS:
        if controller not in controllers:
            controllers[controller] = testbed.add_device('pci', controller, None, ['class', '0x0c0330'], [])
        devices[(bus, '0')] = testbed.add_device(
            'usb', f'usb{bus}', controllers[controller],
            ['busnum', str(bus), 'devpath', '0', 'speed', speed, 'version', ' 3.00' if speed == '5000' else ' 2.00',
             'idVendor', '1d6b', 'idProduct', '0003' if speed == '5000' else '0002'],
            ['DEVTYPE', 'usb_device'])
    devices[(1, '1')] = testbed.add_device(
        'usb', '1-1', devices[(1, '0')],
        ['busnum', '1', 'devpath', '1', 'speed', '480', 'version', ' 2.00', 'bDeviceClass', '09'],
        ['DEVTYPE', 'usb_device'])
    for name, vendor, product, serial, node, bus, devpath, speed, version in USB_TOPOLOGY_CAMERAS:
        parent = devices[(bus, devpath.rpartition('.')[0] or '0')]
        usb = testbed.add_device(
            'usb', f'{bus}-{devpath}', parent,
            ['busnum', str(bus), 'devpath', devpath, 'speed', speed, 'version', f' {version}',
             'idVendor', vendor, 'idProduct', product, 'serial', serial, 'product', name],
            ['DEVTYPE', 'usb_device'])
        interface = testbed.add_device('usb', f'{bus}-{devpath}:1.0', usb, ['bInterfaceClass', '0e'],
                                       ['DEVTYPE', 'usb_interface', 'DRIVER', 'uvcvideo'])
        testbed.add_device('video4linux', f'video{node}', interface,
                           ['name', name, 'index', '0', 'dev', f'81:{node}'],
                           ['DEVNAME', f'video{node}', 'MAJOR', '81', 'MINOR', str(node),
                            'ID_V4L_CAPABILITIES', ':capture:', 'ID_V4L_PRODUCT', name, 'ID_SERIAL_SHORT', serial,
                            'ID_VENDOR_ID', vendor, 'ID_MODEL_ID', product, 'ID_USB_DRIVER', 'uvcvideo'])


def node_record(name, port, node, capabilities):
    """A umockdev record of one video4linux node: the "N:" line makes the testbed create /dev/videoN."""
    return (f'P: /devices/pci0000:00/0000:00:14.0/usb1/1-{port}/1-{port}:1.0/video4linux/video{node}\n'
            f'N: video{node}\n'
            f'E: DEVNAME=/dev/video{node}\nE: SUBSYSTEM=video4linux\nE: MAJOR=81\nE: MINOR={node}\n'
            f'E: ID_V4L_CAPABILITIES={capabilities}\nE: ID_SERIAL_SHORT=AAAA1111\n'
            f'E: ID_PATH=pci-0000:00:14.0-usb-0:{port}:1.0\nE: ID_VENDOR_ID=046d\nE: ID_MODEL_ID=082d\n'
            f'A: name={name}\nA: dev=81:{node}\n\n')


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

    if scenario == 'ioctl':
        # Both nodes claim ":capture:" in udev: only QUERYCAP's device_caps can tell the metadata node apart.
        testbed.add_from_string(node_record('Fake C920', 1, 0, ':capture:'))
        testbed.add_from_string(node_record('Fake C920', 1, 1, ':capture:'))
        handlers = [V4L2Answers(metadata=False), V4L2Answers(metadata=True)]
        testbed.attach_ioctl('/dev/video0', handlers[0])
        testbed.attach_ioctl('/dev/video1', handlers[1])
        return subprocess.call([binary, test_filter], env=environment)

    if scenario == 'enumerate':
        for index, (name, vendor, product, serial, node, port) in enumerate(CAMERAS):
            add_camera(testbed, name, vendor, product, serial, node, port,
                       metadata_node=node + 1 if index == 0 else None)
        return subprocess.call([binary, test_filter], env=environment)

    if scenario == 'sound':
        # Sound cards: card0 on the PCI bus (no USB parent), card1 the microphone of the first C920 (same USB
        # device as /dev/video0), card2 a USB microphone of its own; controlC1 is a sound device but not a card.
        for name, vendor, product, serial, node, port in CAMERAS[:2]:
            add_camera(testbed, name, vendor, product, serial, node, port)
        testbed.add_device('sound', 'card0', None, ['id', 'PCH', 'number', '0'], ['ID_PATH', 'pci-0000:00:1f.3'])
        usb_devices = {port: f'/sys/devices/usb1/1-{port}' for port in (1, 5)}
        yeti = testbed.add_device(
            'usb', 'usb1/1-5', None, ['idVendor', 'b58e', 'idProduct', '9e84', 'serial', 'YETI0001', 'product', 'Yeti'],
            ['DEVTYPE', 'usb_device'])
        usb_devices[5] = yeti
        for port, card, card_id, vendor, product, serial in [(1, 1, 'C920', '046d', '082d', 'AAAA1111'),
                                                             (5, 2, 'Yeti', 'b58e', '9e84', None)]:
            interface = testbed.add_device('usb', f'1-{port}:1.2', usb_devices[port], ['bInterfaceClass', '01'],
                                           ['DEVTYPE', 'usb_interface', 'DRIVER', 'snd-usb-audio'])
            properties = ['ID_VENDOR_ID', vendor, 'ID_MODEL_ID', product, 'ID_PATH', f'pci-0000:00:14.0-usb-0:{port}:1.2']
            if serial:
                properties += ['ID_SERIAL_SHORT', serial]
            card_path = testbed.add_device('sound', f'card{card}', interface, ['id', card_id, 'number', str(card)],
                                           properties)
            testbed.add_device('sound', f'controlC{card}', card_path, ['dev', f'116:{card}'],
                               ['DEVNAME', f'snd/controlC{card}'])
        return subprocess.call([binary, test_filter], env=environment)

    if scenario == 'soundhotplug':
        # card0 (PCI) is there before the test; once its sound monitor listens: the first C920 and its microphone
        # card1 are plugged in, a USB microphone card2 too, card1 is unplugged (control device first) and plugged
        # back, and a sentinel card9 "END" comes last.
        testbed.add_device('sound', 'card0', None, ['id', 'PCH', 'number', '0'], ['ID_PATH', 'pci-0000:00:1f.3'])
        child = subprocess.Popen([binary, test_filter], env=environment)
        if not wait_for_monitor(testbed.get_root_dir(), child):
            child.kill()
            print('testbed.py: the test never opened a udev monitor', file=sys.stderr)
            return 2
        name, vendor, product, serial, node, port = CAMERAS[0]
        add_camera(testbed, name, vendor, product, serial, node, port)
        usb_c920 = '/sys/devices/usb1/1-1'
        yeti = testbed.add_device(
            'usb', 'usb1/1-5', None, ['idVendor', 'b58e', 'idProduct', '9e84', 'serial', 'YETI0001', 'product', 'Yeti'],
            ['DEVTYPE', 'usb_device'])

        def add_card(usb_device, port, card, card_id, vendor, product, serial):
            interface = testbed.add_device('usb', f'1-{port}:1.2', usb_device, ['bInterfaceClass', '01'],
                                           ['DEVTYPE', 'usb_interface', 'DRIVER', 'snd-usb-audio'])
            properties = ['ID_VENDOR_ID', vendor, 'ID_MODEL_ID', product,
                          'ID_PATH', f'pci-0000:00:14.0-usb-0:{port}:1.2']
            if serial:
                properties += ['ID_SERIAL_SHORT', serial]
            card_path = testbed.add_device('sound', f'card{card}', interface, ['id', card_id, 'number', str(card)],
                                           properties)
            control = testbed.add_device('sound', f'controlC{card}', card_path, ['dev', f'116:{card}'],
                                         ['DEVNAME', f'snd/controlC{card}'])
            return interface, card_path, control

        interface, card1, control1 = add_card(usb_c920, 1, 1, 'C920', '046d', '082d', 'AAAA1111')
        time.sleep(0.1)
        add_card(yeti, 5, 2, 'Yeti', 'b58e', '9e84', None)
        time.sleep(0.1)
        testbed.uevent(control1, 'remove')
        testbed.remove_device(control1)
        testbed.uevent(card1, 'remove')
        testbed.remove_device(card1)
        testbed.uevent(interface, 'remove')
        testbed.remove_device(interface)
        time.sleep(0.1)
        add_card(usb_c920, 1, 1, 'C920', '046d', '082d', 'AAAA1111')
        time.sleep(0.1)
        end_usb = testbed.add_device('usb', 'usb1/1-9', None, ['idVendor', '1d6b', 'idProduct', '0104'],
                                     ['DEVTYPE', 'usb_device'])
        add_card(end_usb, 9, 9, 'END', '1d6b', '0104', 'END')
        try:
            return child.wait(timeout=60)
        except subprocess.TimeoutExpired:
            child.kill()
            return 3

    if scenario == 'soundplug':
        # No sound card at the start; once the child's sound monitor listens, the C920's card1 and a Yeti card2
        # are plugged in (their PCMs cannot be opened: umockdev answers no ALSA ioctl).
        child = subprocess.Popen([binary, test_filter], env=environment)
        if not wait_for_monitor(testbed.get_root_dir(), child):
            child.kill()
            print('testbed.py: the test never opened a udev monitor', file=sys.stderr)
            return 2
        for port, card, card_id, vendor, product in [(1, 1, 'C920', '046d', '082d'), (5, 2, 'Yeti', 'b58e', '9e84')]:
            usb = testbed.add_device('usb', f'usb1/1-{port}', None, ['idVendor', vendor, 'idProduct', product],
                                     ['DEVTYPE', 'usb_device'])
            interface = testbed.add_device('usb', f'1-{port}:1.2', usb, ['bInterfaceClass', '01'],
                                           ['DEVTYPE', 'usb_interface', 'DRIVER', 'snd-usb-audio'])
            testbed.add_device('sound', f'card{card}', interface, ['id', card_id, 'number', str(card)],
                               ['ID_VENDOR_ID', vendor, 'ID_MODEL_ID', product])
        try:
            return child.wait(timeout=120)
        except subprocess.TimeoutExpired:
            child.kill()
            return 3

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

    if scenario == 'usbplan':
        add_usb_topology(testbed)
        return subprocess.call([binary, test_filter], env=environment)

    print(f'testbed.py: unknown scenario {scenario}', file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main())
