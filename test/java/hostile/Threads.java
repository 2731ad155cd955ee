// Threads.java - a thread group (denied).
public class Threads {
	public static void main(String[] args) {
		Thread t = new Thread(new ThreadGroup("g"), () -> { });
		t.start();
		System.out.println("{\"ran\":true}");
	}
}
