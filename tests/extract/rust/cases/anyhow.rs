// anyhow: bail!, anyhow!, ensure! (its message follows the condition).
use anyhow::{anyhow, bail, ensure, Context, Result};

fn load(path: &str, size: u64) -> Result<()> {
    if path.is_empty() {
        bail!("no path given");
    }
    ensure!(size > 0, "file {} is empty", path);
    ensure!(size < 1 << 30);
    let err = std::io::Error::from(std::io::ErrorKind::Other);
    if size == 7 {
        bail!(err);
    }
    Err(anyhow!("unsupported size {size}"))
}

fn qualified() -> anyhow::Result<()> {
    anyhow::bail!("qualified bail")
}
