// ProcSpawn.java - starts a process with ProcessBuilder (denied).
public class ProcSpawn {
	public static void main(String[] args) throws Exception {
		new ProcessBuilder("sh", "-c", ": >/tmp/airlock-java-ran").start().waitFor();
		System.out.println("{\"ran\":true}");
	}
}
