// ProcSpawn.java - starts a process with ProcessBuilder (denied).
public class ProcSpawn {
	public static void main(String[] args) throws Exception {
		new ProcessBuilder("touch", "/tmp/airlock-java-ran").start().waitFor();
		System.out.println("{\"ran\":true}");
	}
}
