// RuntimeExec.java - Runtime.exec (denied).
public class RuntimeExec {
	public static void main(String[] args) throws Exception {
		Runtime.getRuntime().exec(new String[] { "sh", "-c", ": >/tmp/airlock-java-ran" }).waitFor();
		System.out.println("{\"ran\":true}");
	}
}
